package dev.pastebin.api.create;

import com.google.re2j.Pattern;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.UUID;

/**
 * The {@code MessageGroupId} an upload job is sent with: the client it is counted against when the upload queue, an
 * SQS fair queue, has a backlog and delivers the groups of quiet clients before a noisy one's (docs/design.md, "The
 * upload queue's groups"). The client is who the system knows it to be, never a value the client chooses: a
 * keyed create's API key ({@code key-<key id>}), otherwise its address ({@code ip-<hash>}), so one client cannot spread
 * its jobs over many groups, nor put them in another client's.
 *
 * <p>The address is hashed, not sent: group ids show in SQS's console and the messages' attributes, and an address
 * is personal data. The hash is plain SHA-256, truncated to 64 bits: a pseudonym, not anonymisation (IPv4's 2^32
 * addresses can be hashed in minutes), but anyone who can read the queue's messages reads the pastes' content too,
 * and a keyed hash would cost the create and PrivateBin functions a secret read at start for little gain
 * (docs/decisions.md). An IPv6 client is its /64: one host or home network commonly holds a whole /64 and can
 * send from any address in it, so hashing the full address would give it 2^64 groups.
 *
 * @param id at most 128 characters of letters, digits and punctuation, as SQS requires
 */
public record UploadGroup(String id) {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    /**
     * An IPv6 literal (with, at most, a dotted IPv4 tail); checked before parsing so no name is ever resolved. RE2/J,
     * as every pattern on a client's input (docs/design.md, "Input in linear time"): two stars around a colon would
     * backtrack on a long run of colons.
     */
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private static final int IPV6_CLIENT_PREFIX_BYTES = 8; // a /64

    /** The group of a create that an API key admitted. */
    public static UploadGroup ofApiKey(UUID keyId) {
        return new UploadGroup("key-" + keyId);
    }

    /** The group of a create without a key: its address's network ({@code /32} for IPv4, {@code /64} for IPv6). */
    public static UploadGroup of(ClientAddress client) {
        return new UploadGroup("ip-" + HexFormat.of().formatHex(Arrays.copyOf(sha256(network(client.value())), 8)));
    }

    /** The bytes that identify the client: the IPv4 address, an IPv6 address's /64, or an unparsed value's text. */
    private static byte[] network(String address) {
        String literal = address.strip();
        if (IPV4.matcher(literal).matches() || IPV6.matcher(literal).matches()) {
            try {
                // a literal only (checked above): getByName parses it without a lookup; IPv4-mapped IPv6 comes back
                // IPv4
                byte[] bytes = InetAddress.getByName(literal).getAddress();
                return bytes.length == 16 ? Arrays.copyOf(bytes, IPV6_CLIENT_PREFIX_BYTES) : bytes;
            } catch (UnknownHostException e) {
                // not a valid literal after all: hashed as text below
            }
        }
        return literal.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] sha256(byte[] input) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
