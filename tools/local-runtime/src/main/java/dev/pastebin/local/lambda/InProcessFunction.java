package dev.pastebin.local.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.amazonaws.services.lambda.runtime.serialization.factories.JacksonFactory;
import dev.pastebin.local.Json;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A {@link RequestHandler} invoked in this JVM, for tests that drive a handler through an event source (e.g.
 * {@code dev.pastebin.local.sqs.SqsEventSourceMapping}) without starting a function process. Events and
 * responses go through the serializers Lambda's Java runtime uses, and a thrown exception becomes Lambda's
 * error document, so the event source sees what it would see from a deployed function.
 */
public final class InProcessFunction<I, O> implements LambdaFunction {

    private final String name;
    private final RequestHandler<I, O> handler;
    private final PojoSerializer<I> events;
    private final Supplier<Context> context;

    private InProcessFunction(
            String name, RequestHandler<I, O> handler, Class<I> eventType, Supplier<Context> context) {
        this.name = name;
        this.handler = handler;
        this.events = serializer(eventType);
        this.context = context;
    }

    /**
     * @param eventType the handler's input type (e.g. {@code SQSEvent.class})
     * @param context   the Context of each invocation (remaining time, request id, ...)
     */
    public static <I, O> InProcessFunction<I, O> of(
            String name, RequestHandler<I, O> handler, Class<I> eventType, Supplier<Context> context) {
        return new InProcessFunction<>(name, handler, eventType, context);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public InvocationResult invoke(byte[] event, String trigger) {
        String requestId = UUID.randomUUID().toString();
        long start = System.nanoTime();
        try {
            O response = handler.handleRequest(events.fromJson(new ByteArrayInputStream(event)), context.get());
            return new InvocationResult(requestId, toJson(response), null, since(start), false);
        } catch (RuntimeException | Error e) {
            return InvocationResult.error(
                    requestId, e.getClass().getName(), String.valueOf(e.getMessage()), since(start), false);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> byte[] toJson(T value) {
        if (value == null) {
            return Json.bytes(Json.MAPPER.nullNode());
        }
        var out = new ByteArrayOutputStream();
        serializer((Class<T>) value.getClass()).toJson(value, out);
        return out.toByteArray();
    }

    /** The serializer the runtime interface client picks: the events library's mix-ins, else plain Jackson. */
    private static <T> PojoSerializer<T> serializer(Class<T> type) {
        return LambdaEventSerializers.isLambdaSupportedEvent(type.getName())
                ? LambdaEventSerializers.serializerFor(type, type.getClassLoader())
                : JacksonFactory.getInstance().getSerializer(type);
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }
}
