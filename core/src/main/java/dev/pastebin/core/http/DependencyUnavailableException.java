package dev.pastebin.core.http;

/**
 * A dependency the request needs (database, queue, storage) cannot be reached right now; the client should
 * retry. Answered 503 with {@code Retry-After}. {@code dependency} is a plain word ("database"), never a host,
 * bucket or queue name, because it is shown to the client.
 */
public class DependencyUnavailableException extends RuntimeException {

    private final String dependency;

    public DependencyUnavailableException(String dependency, Throwable cause) {
        super(dependency + " unavailable: " + cause.getClass().getSimpleName(), cause);
        this.dependency = dependency;
    }

    public String dependency() {
        return dependency;
    }
}
