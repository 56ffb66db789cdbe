package dev.pastebin.faults;

/** Object PUTs of one key that reached the proxy: all of them, and those it answered with a fault. */
public record PutCount(int attempts, int faulted) {

    static final PutCount NONE = new PutCount(0, 0);

    /** The PUTs that reached the service behind the proxy. */
    public int forwarded() {
        return attempts - faulted;
    }

    PutCount plus(PutCount other) {
        return new PutCount(attempts + other.attempts, faulted + other.faulted);
    }
}
