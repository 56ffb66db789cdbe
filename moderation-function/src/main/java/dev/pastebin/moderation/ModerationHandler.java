package dev.pastebin.moderation;

import dev.pastebin.core.metrics.Metrics;
import io.micronaut.context.ApplicationContext;
import io.micronaut.function.aws.MicronautRequestHandler;
import io.micronaut.serde.ObjectMapper;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.Map;

/**
 * The operator's function: no HTTP route, invoked with IAM credentials ({@code aws lambda invoke}, wrapped by
 * {@code infra/admin}) with a {@link ModerationCommand}; answers a {@link ModerationAnswer}. Takedowns and the
 * blocklist are {@link ModerationService}'s, API keys {@link KeysService}'s.
 *
 * <p>The event arrives as a map: Lambda's Java runtime deserializes a handler's input itself, and its JSON library
 * cannot construct a record. The map is read into the command with the function's own serde; a command that does
 * not read is answered as refused, like any other bad command.
 */
public class ModerationHandler extends MicronautRequestHandler<Map<String, Object>, ModerationAnswer> {

    @Inject
    ModerationService service;

    @Inject
    KeysService keys;

    @Inject
    Metrics metrics;

    @Inject
    ObjectMapper json;

    public ModerationHandler() {}

    public ModerationHandler(ApplicationContext applicationContext) {
        super(applicationContext);
    }

    @Override
    public ModerationAnswer execute(Map<String, Object> event) {
        ModerationCommand command;
        try {
            command = json.readValue(json.writeValueAsBytes(event), ModerationCommand.class);
        } catch (IOException e) {
            return ModerationAnswer.refused("not a moderation command: " + e.getMessage());
        }
        return handle(command);
    }

    /** One command, as {@link #execute} reads it from the event. */
    public ModerationAnswer handle(ModerationCommand command) {
        try {
            // API keys are their own service; everything else, a bad command included, is moderation's
            return command != null && command.action() != null && KeysService.ACTIONS.contains(command.action())
                    ? keys.handle(command)
                    : service.handle(command);
        } finally {
            metrics.flush();
        }
    }
}
