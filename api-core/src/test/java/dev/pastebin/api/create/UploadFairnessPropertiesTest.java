package dev.pastebin.api.create;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UploadFairnessPropertiesTest {

    private static final UploadFairnessProperties ON = new UploadFairnessProperties(true, 100, 20, 900);

    @Test
    void upToTheBacklogNoJobWaits() {
        assertEquals(0, ON.delaySeconds(0));
        assertEquals(0, ON.delaySeconds(100));
    }

    @Test
    void beyondTheBacklogTheKthJobWaitsKOverTheRateRoundedUp() {
        assertEquals(1, ON.delaySeconds(101));
        assertEquals(1, ON.delaySeconds(120));
        assertEquals(2, ON.delaySeconds(121));
        assertEquals(50, ON.delaySeconds(1100));
    }

    @Test
    void theDelayStopsAtTheLongest() {
        assertEquals(900, ON.delaySeconds(100 + 20 * 900));
        assertEquals(900, ON.delaySeconds(10_000_000));
    }

    @Test
    void offNothingWaits() {
        assertEquals(0, new UploadFairnessProperties(false, 100, 20, 900).delaySeconds(10_000));
    }
}
