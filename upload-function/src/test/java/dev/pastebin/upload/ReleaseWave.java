package dev.pastebin.upload;

import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.faults.FaultProxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The S3 PUTs after an outage's recovery, sampled every 100 ms with the breaker's state: how many reached S3
 * before the breaker closed (the probe's alone, if the held jobs wait for it) and the most in any one second.
 */
final class ReleaseWave {

    /** The proxy's PUT count at {@code atMillis}, and the breaker's state read just after it. */
    private record Sample(long atMillis, int puts, BreakerState state) {}

    private final FaultProxy proxy;
    private final Supplier<BreakerState> breaker;
    private final long started = System.nanoTime();
    private final List<Sample> samples = new ArrayList<>();
    /** A daemon: a test that fails before {@link #stop} leaves nothing running. */
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "release-wave");
        t.setDaemon(true);
        return t;
    });

    private ReleaseWave(FaultProxy proxy, Supplier<BreakerState> breaker) {
        this.proxy = proxy;
        this.breaker = breaker;
    }

    static ReleaseWave watch(FaultProxy proxy, Supplier<BreakerState> breaker) {
        ReleaseWave wave = new ReleaseWave(proxy, breaker);
        var unused = wave.sampler.scheduleAtFixedRate(wave::sample, 0, 100, TimeUnit.MILLISECONDS);
        return wave;
    }

    private void sample() {
        // the count first: a state read after it that is not CLOSED means no PUT in the count followed the closing
        int puts = proxy.putCount();
        BreakerState state = breaker.get();
        synchronized (samples) {
            samples.add(new Sample((System.nanoTime() - started) / 1_000_000, puts, state));
        }
    }

    void stop() throws InterruptedException {
        sampler.shutdown();
        sampler.awaitTermination(5, TimeUnit.SECONDS);
        sample();
    }

    /** PUTs after {@code putsAtRecovery} that S3 received while the breaker had not closed yet. */
    int putsBeforeClosing(int putsAtRecovery) {
        synchronized (samples) {
            return samples.stream()
                            .filter(s -> s.state() != BreakerState.CLOSED)
                            .mapToInt(Sample::puts)
                            .max()
                            .orElse(putsAtRecovery)
                    - putsAtRecovery;
        }
    }

    /** The most PUTs within any one second (ten consecutive samples) since the recovery. */
    int peakPutsPerSecond() {
        synchronized (samples) {
            int peak = 0;
            for (int i = 0; i < samples.size(); i++) {
                int j = i;
                while (j + 1 < samples.size()
                        && samples.get(j + 1).atMillis() - samples.get(i).atMillis() <= 1000) {
                    j++;
                }
                peak = Math.max(peak, samples.get(j).puts() - samples.get(i).puts());
            }
            return peak;
        }
    }

    @Override
    public String toString() {
        synchronized (samples) {
            return samples.stream()
                    .filter(s -> s.state() != BreakerState.CLOSED)
                    .map(s -> s.atMillis() + "ms:" + s.puts() + ":" + s.state())
                    .toList()
                    .toString();
        }
    }
}
