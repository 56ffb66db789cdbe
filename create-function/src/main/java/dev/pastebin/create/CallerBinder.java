package dev.pastebin.create;

import dev.pastebin.api.create.ClientAddress;
import dev.pastebin.api.create.CreateCredential;
import dev.pastebin.api.http.EdgeRequests;
import dev.pastebin.api.http.RequestCredentials;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.bind.binders.TypedRequestArgumentBinder;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * Binds {@link Caller} arguments from the API Gateway (HTTP API, payload 2.0) event behind the request: its
 * credential ({@link RequestCredentials}: the {@code sub} claim a JWT authorizer verified, whose subject is the
 * caller's user id, else the bearer credential of its {@code Authorization} header), and the client's address
 * ({@link EdgeRequests#clientAddress(HttpRequest)}: {@code X-Forwarded-For} only from the verified edge).
 * Tests replace this bean ({@code @Replaces(CallerBinder.class)}) to act as any caller.
 */
@Singleton
public class CallerBinder implements TypedRequestArgumentBinder<Caller> {

    private static final Argument<Caller> TYPE = Argument.of(Caller.class);

    @Override
    public Argument<Caller> argumentType() {
        return TYPE;
    }

    @Override
    public BindingResult<Caller> bind(ArgumentConversionContext<Caller> context, HttpRequest<?> source) {
        CreateCredential credential = RequestCredentials.of(source);
        Caller caller = new Caller(
                CreateCredential.subjectOf(credential),
                credential,
                new ClientAddress(EdgeRequests.clientAddress(source)));
        return () -> Optional.of(caller);
    }
}
