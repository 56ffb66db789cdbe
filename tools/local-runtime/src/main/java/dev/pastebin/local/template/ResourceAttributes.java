package dev.pastebin.local.template;

import java.util.Optional;

/**
 * What {@code Ref} and {@code Fn::GetAtt} of a template's resources (and pseudo parameters such as
 * {@code AWS::Region}) return where the template runs; empty where there is no such value.
 */
public interface ResourceAttributes {

    /** Resolves nothing: only literals and parameter values remain. */
    ResourceAttributes NONE = new ResourceAttributes() {
        @Override
        public Optional<String> ref(String logicalId) {
            return Optional.empty();
        }

        @Override
        public Optional<String> getAtt(String logicalId, String attribute) {
            return Optional.empty();
        }
    };

    Optional<String> ref(String logicalId);

    Optional<String> getAtt(String logicalId, String attribute);
}
