package dev.pastebin.edgeacl;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The function's settings, from its environment (infra/template.yaml sets none of them: the defaults are AWS's).
 *
 * @param region                 where the stack is: CloudFront web ACLs exist only in us-east-1
 *                               ({@code PASTEBIN_EDGE_ACL_REGION})
 * @param cloudFormationEndpoint another CloudFormation endpoint than the region's, e.g. LocalStack's in the tests
 *                               ({@code PASTEBIN_EDGE_ACL_CLOUDFORMATION_ENDPOINT})
 * @param template               the template the stack is made of: {@link #PACKED_TEMPLATE} (infra/edge-waf.yaml,
 *                               packed into the artifact), or a file path ({@code PASTEBIN_EDGE_ACL_TEMPLATE})
 * @param deadlineMargin         time kept back from the function's remaining time to answer CloudFormation
 *                               ({@code PASTEBIN_EDGE_ACL_DEADLINE_MARGIN}, seconds)
 * @param pollInterval           between two looks at the stack while waiting ({@code PASTEBIN_EDGE_ACL_POLL_INTERVAL},
 *                               seconds)
 */
record EdgeAclSettings(
        String region,
        Optional<URI> cloudFormationEndpoint,
        String template,
        Duration deadlineMargin,
        Duration pollInterval) {

    static final String PACKED_TEMPLATE = "classpath:edge-waf.yaml";

    static EdgeAclSettings fromEnvironment(Map<String, String> env) {
        return new EdgeAclSettings(
                value(env, "PASTEBIN_EDGE_ACL_REGION").orElse("us-east-1"),
                value(env, "PASTEBIN_EDGE_ACL_CLOUDFORMATION_ENDPOINT").map(URI::create),
                value(env, "PASTEBIN_EDGE_ACL_TEMPLATE").orElse(PACKED_TEMPLATE),
                seconds(env, "PASTEBIN_EDGE_ACL_DEADLINE_MARGIN", 30),
                seconds(env, "PASTEBIN_EDGE_ACL_POLL_INTERVAL", 5));
    }

    private static Optional<String> value(Map<String, String> env, String name) {
        return Optional.ofNullable(env.get(name)).map(String::strip).filter(v -> !v.isEmpty());
    }

    private static Duration seconds(Map<String, String> env, String name, long fallback) {
        Optional<String> given = value(env, name);
        if (given.isEmpty()) {
            return Duration.ofSeconds(fallback);
        }
        try {
            long seconds = Long.parseLong(given.get());
            if (seconds < 0) {
                throw new IllegalArgumentException(name + " must not be negative: " + seconds);
            }
            return Duration.ofSeconds(seconds);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is not a number of seconds: " + given.get(), e);
        }
    }
}
