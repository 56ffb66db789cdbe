package dev.pastebin.upload;

import dev.pastebin.core.paste.HeldDelivery;
import dev.pastebin.core.paste.HeldDeliveryRepository;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The held deliveries' contract in memory, for unit tests; the SQL is exercised by HeldReleaseIT. */
final class InMemoryHeldDeliveries implements HeldDeliveryRepository {

    private final Map<String, HeldDelivery> held = new ConcurrentHashMap<>();

    HeldDelivery of(String shortCode) {
        return held.get(shortCode);
    }

    @Override
    public int recordHeldDelivery(String shortCode, String receiptHandle, Instant heldUntil) {
        held.put(shortCode, new HeldDelivery(shortCode, receiptHandle, heldUntil));
        return 1;
    }

    @Override
    public List<HeldDelivery> findHeldDeliveries(Instant now, int limit) {
        return held.values().stream()
                .filter(h -> h.heldUntil().isAfter(now))
                .sorted(Comparator.comparing(HeldDelivery::shortCode))
                .limit(limit)
                .toList();
    }

    @Override
    public long countHeldDeliveries(Instant now) {
        return held.values().stream().filter(h -> h.heldUntil().isAfter(now)).count();
    }

    @Override
    public int forgetHeldDeliveries(List<String> shortCodes, List<String> receiptHandles) {
        int forgotten = 0;
        for (String shortCode : shortCodes) {
            HeldDelivery h = held.get(shortCode);
            if (h != null && receiptHandles.contains(h.heldReceiptHandle()) && held.remove(shortCode, h)) {
                forgotten++;
            }
        }
        return forgotten;
    }
}
