package dev.pastebin.core.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Random;
import java.util.random.RandomGenerator;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Two restores of one checkpointed state. No CRaC JVM is available to the build, so the closest local
 * equivalent of a snapshot is used: the generator's heap state is serialized once after it has been used
 * (the checkpoint) and deserialized twice (two environments restored from it); each restored copy then draws.
 */
class RestoreSafeRandomTest {

    @Test
    void twoRestoresOfOneSnapshotDrawDifferentJitter() throws Exception {
        RandomGenerator generator = RestoreSafeRandom.generator();
        generator.nextDouble(); // used before the snapshot, as priming and earlier retries would
        byte[] snapshot = checkpoint(generator);

        long[] first = draws(restore(snapshot));
        long[] second = draws(restore(snapshot));

        assertFalse(java.util.Arrays.equals(first, second), "two restores drew the same jitter");
    }

    /** The same procedure catches a generator whose state is all in the heap (what ThreadLocalRandom's seeds are). */
    @Test
    void theProcedureDetectsAHeapSeededGenerator() throws Exception {
        Random heapSeeded = new Random();
        heapSeeded.nextDouble();
        byte[] snapshot = checkpoint(heapSeeded);

        assertArrayEquals(draws(restore(snapshot)), draws(restore(snapshot)));
    }

    @Test
    void drawsStayInRange() {
        RandomGenerator generator = RestoreSafeRandom.generator();
        assertTrue(LongStream.range(0, 1000).map(i -> generator.nextLong(5001)).allMatch(v -> v >= 0 && v <= 5000));
        assertTrue(LongStream.range(0, 1000)
                .mapToDouble(i -> generator.nextDouble())
                .allMatch(v -> v >= 0 && v < 1));
    }

    private static byte[] checkpoint(RandomGenerator generator) throws IOException {
        var bytes = new ByteArrayOutputStream();
        try (var out = new ObjectOutputStream(bytes)) {
            out.writeObject((Serializable) generator);
        }
        return bytes.toByteArray();
    }

    private static RandomGenerator restore(byte[] snapshot) throws IOException, ClassNotFoundException {
        try (var in = new ObjectInputStream(new ByteArrayInputStream(snapshot))) {
            return (RandomGenerator) in.readObject();
        }
    }

    private static long[] draws(RandomGenerator generator) {
        return LongStream.range(0, 8).map(i -> generator.nextLong()).toArray();
    }
}
