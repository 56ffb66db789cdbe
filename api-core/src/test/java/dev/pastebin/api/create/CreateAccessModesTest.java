package dev.pastebin.api.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pastebin.core.paste.ApiKeyRequiredException;
import dev.pastebin.core.paste.SignInRequiredException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The modes that admit without a statement: {@code anyone}, and {@code oidc}, which admits only the subject API
 * Gateway's JWT authorizer verified (a bearer credential of its own is not one). No database is given: a statement
 * would fail the test.
 */
class CreateAccessModesTest {

    private static CreateAccess access(CreateAccessProperties.Mode mode) {
        return new CreateAccess(new CreateAccessProperties(mode), new ApiKeyLookup(null, null), null, null);
    }

    @Test
    void anyoneAdmitsEveryCredentialWithoutAGrant() {
        CreateAccess anyone = access(CreateAccessProperties.Mode.ANYONE);
        assertEquals(Optional.empty(), anyone.admit(CreateCredential.NONE));
        assertEquals(Optional.empty(), anyone.admit(new CreateCredential.Bearer("pb_x")));
    }

    @Test
    void oidcAdmitsAVerifiedSubjectWithoutAGrant() {
        assertEquals(
                Optional.empty(),
                access(CreateAccessProperties.Mode.OIDC).admit(new CreateCredential.Verified("user-1")));
    }

    @Test
    void oidcRefusesACreateThatReachedTheFunctionWithoutAVerifiedSubject() {
        CreateAccess oidc = access(CreateAccessProperties.Mode.OIDC);
        assertThrows(SignInRequiredException.class, () -> oidc.admit(CreateCredential.NONE));
        assertThrows(SignInRequiredException.class, () -> oidc.admit(CreateCredential.MALFORMED));
        // a bearer token the authorizer did not verify is no sign-in, whatever it holds
        assertThrows(SignInRequiredException.class, () -> oidc.admit(new CreateCredential.Bearer("eyJhbGciOi.x.y")));
    }

    @Test
    void apiKeyModeStillRequiresAKey() {
        assertThrows(
                ApiKeyRequiredException.class,
                () -> access(CreateAccessProperties.Mode.API_KEY).admit(CreateCredential.NONE));
    }

    @Test
    void onlyAVerifiedCredentialHasASubject() {
        assertEquals("user-1", CreateCredential.subjectOf(new CreateCredential.Verified("user-1")));
        assertEquals(null, CreateCredential.subjectOf(new CreateCredential.Bearer("pb_x")));
        assertEquals(null, CreateCredential.subjectOf(CreateCredential.NONE));
    }
}
