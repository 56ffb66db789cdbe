/**
 * A held upload job, from the refused PUT to the next visibility, and back (docs/design.md, "Circuit breaker").
 *
 * <p>Read top to bottom:
 *
 * <ol>
 *   <li><b>Start.</b> Every delivery begins with one statement ({@link dev.pastebin.upload.hold.JdbcDeliveryStarts}):
 *       the paste's row and the breaker's, read together. When the breaker is open and its probe is further away
 *       than the visibility change takes, the same statement notes the hold on the row at once, with its longest
 *       end ({@link dev.pastebin.upload.hold.EarlyHold}), and every few seconds counts the jobs held fleet-wide
 *       ({@link dev.pastebin.upload.hold.HeldBacklog}); the answer is a {@link
 *       dev.pastebin.upload.hold.DeliveryStart}. That is the one rule written twice, in SQL here and in Java in
 *       {@code core.breaker}, on purpose: a held delivery then costs one round trip (docs/scale.md).
 *   <li><b>Decide.</b> Otherwise the breaker refuses the PUT, and the upload's own packages decide how long to wait
 *       ({@code DeliveryOutcomes} → {@code DeliveryDecisions} → {@code core.delivery.DeliverySchedule}): a
 *       {@code Decision.Hold} of so many seconds, longer while many are held.
 *   <li><b>Note.</b> {@code DeliveryEffects} makes the message invisible for that long ({@link
 *       dev.pastebin.upload.hold.MessageVisibility}) and notes the held message on the row ({@link
 *       dev.pastebin.upload.hold.HeldDeliveryRepository#recordBreakerHold}, only while the breaker is not closed)
 *       and the paste's first hold ({@link dev.pastebin.upload.hold.FirstHold}), the clock of the hold limit.
 *   <li><b>Release.</b> The probe that closes the breaker publishes {@code BreakerClosed}; {@link
 *       dev.pastebin.upload.hold.HeldJobRelease} takes the noted messages, longest waiting first ({@link
 *       dev.pastebin.upload.hold.HeldReleaseStore}, {@link dev.pastebin.upload.hold.JdbcHeldReleaseStore}), and
 *       makes them visible again in batches spread by {@code core.delivery.ReleasePlan}.
 * </ol>
 */
package dev.pastebin.upload.hold;
