import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * What a jitter draw costs: ThreadLocalRandom (not restore-safe) against NativePRNGNonBlocking, the source of
 * core.random.RestoreSafeRandom. Run: java tools/benchmarks/random-cost/RandomCost.java (docs/benchmarks.md).
 */
public class RandomCost {

    public static void main(String[] args) throws Exception {
        SecureRandom nonBlocking = SecureRandom.getInstance("NativePRNGNonBlocking");
        SplittableRandom splittable = new SplittableRandom();
        for (int round = 0; round < 3; round++) {  // the first rounds warm the code up; the last one is reported
            report("ThreadLocalRandom.nextDouble", () -> ThreadLocalRandom.current().nextDouble(), round);
            report("SplittableRandom.nextDouble", splittable::nextDouble, round);
            report("NativePRNGNonBlocking.nextDouble", nonBlocking::nextDouble, round);
        }
    }

    private static void report(String name, DoubleSupplier draw, int round) {
        int draws = 200_000;
        double sink = 0;
        long start = System.nanoTime();
        for (int i = 0; i < draws; i++) {
            sink += draw.getAsDouble();
        }
        double nanos = (System.nanoTime() - start) / (double) draws;
        if (round == 2) {
            System.out.printf("%-34s %10.1f ns per draw (checksum %.1f)%n", name, nanos, sink);
        }
    }
}
