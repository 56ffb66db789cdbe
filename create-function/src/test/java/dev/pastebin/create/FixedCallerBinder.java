package dev.pastebin.create;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.bind.binders.TypedRequestArgumentBinder;
import jakarta.inject.Singleton;
import java.util.Optional;

/** Acts as the user {@code test.caller} names, whatever the request carries: how a test replaces the identity. */
@Singleton
@Replaces(CallerBinder.class)
@Requires(property = FixedCallerBinder.PROPERTY)
class FixedCallerBinder implements TypedRequestArgumentBinder<Caller> {

    static final String PROPERTY = "test.caller";

    private final Caller caller;

    FixedCallerBinder(@Value("${" + PROPERTY + "}") String userId) {
        this.caller = new Caller(userId);
    }

    @Override
    public Argument<Caller> argumentType() {
        return Argument.of(Caller.class);
    }

    @Override
    public BindingResult<Caller> bind(ArgumentConversionContext<Caller> context, HttpRequest<?> source) {
        return () -> Optional.of(caller);
    }
}
