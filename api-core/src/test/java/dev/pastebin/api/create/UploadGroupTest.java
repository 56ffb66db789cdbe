package dev.pastebin.api.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The upload job's message group: who the client is, in a form SQS takes and that does not show an address. */
class UploadGroupTest {

    private static String of(String address) {
        return UploadGroup.of(new ClientAddress(address)).id();
    }

    @Test
    void oneIpv4AddressIsOneGroupAndItsNeighbourAnother() {
        assertEquals(of("198.51.100.7"), of("198.51.100.7"));
        assertNotEquals(of("198.51.100.7"), of("198.51.100.8"));
    }

    @Test
    void anIpv6SlashSixtyFourIsOneGroupHoweverItIsWritten() {
        String host = of("2001:db8:1:2::1");

        assertEquals(host, of("2001:db8:1:2:ffff:eeee:dddd:cccc"));
        assertEquals(host, of("2001:0DB8:0001:0002:0000:0000:0000:0009"));
        assertNotEquals(host, of("2001:db8:1:3::1"));
    }

    @Test
    void anIpv4MappedIpv6AddressIsItsIpv4Address() {
        assertEquals(of("198.51.100.7"), of("::ffff:198.51.100.7"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"198.51.100.7", "2001:db8:1:2::1", "unknown", "not an address", "::zz"})
    void theGroupIsShortTakenBySqsAndDoesNotShowTheAddress(String address) {
        String id = of(address);

        assertTrue(id.matches("ip-[0-9a-f]{16}"), id);
        assertFalse(id.contains(address), id);
    }

    @Test
    void aKeyedCreatesGroupIsItsKeyWhateverItsAddress() {
        UUID key = UUID.fromString("7d1c9a3e-5b2f-4e61-9c0a-1f2e3d4c5b6a");

        assertEquals(
                "key-7d1c9a3e-5b2f-4e61-9c0a-1f2e3d4c5b6a",
                UploadGroup.ofApiKey(key).id());
        assertNotEquals(UploadGroup.ofApiKey(key), UploadGroup.ofApiKey(UUID.randomUUID()));
    }

    @Test
    void anAddressIsNeverLogged() {
        assertFalse(new ClientAddress("198.51.100.7").toString().contains("198"));
    }
}
