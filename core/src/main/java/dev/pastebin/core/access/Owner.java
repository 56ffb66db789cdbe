package dev.pastebin.core.access;

import java.util.Objects;
import java.util.UUID;

/**
 * Who owns a paste, and who asks for their own (docs/design.md, "Ownership"): the one value the owner's listing and
 * the owner's delete take, whatever proved it. An anonymous paste has no owner and is never anyone's.
 */
public sealed interface Owner {

    /** The API key a paste was created with ({@code pastes.owner_key_id}): the key's id, never the key. */
    record ApiKey(UUID keyId) implements Owner {
        public ApiKey {
            Objects.requireNonNull(keyId, "keyId");
        }
    }

    /**
     * An OpenID Connect principal ({@code pastes.user_id}): the {@code sub} claim of a token the instance's one
     * issuer signed, as the issuer gave it (at most {@value #MAX_LENGTH} characters, OpenID Connect Core 1.0, section
     * 2, says 255 ASCII characters). Never the token itself.
     */
    record Subject(String sub) implements Owner {
        public static final int MAX_LENGTH = 255;

        public Subject {
            Objects.requireNonNull(sub, "sub");
            if (sub.isEmpty() || sub.length() > MAX_LENGTH) {
                throw new IllegalArgumentException("A subject is 1 to " + MAX_LENGTH + " characters");
            }
        }

        @Override
        public String toString() {
            // a subject may be an e-mail address: logged by length only
            return "Subject[" + sub.length() + " characters]";
        }
    }
}
