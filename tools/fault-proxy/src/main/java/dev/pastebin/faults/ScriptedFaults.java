package dev.pastebin.faults;

import dev.pastebin.faults.FaultProxy.Fault;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * S3's faults scripted by the tests, in-process: the next PUTs of one object name, every PUT of one, every other
 * object PUT, every GET, every HEAD, DeleteObjects refused key by key. {@link #recover()} switches off all but the per-object
 * scripts.
 */
final class ScriptedFaults {

    private final Map<String, Deque<Fault>> scripts = new ConcurrentHashMap<>();
    private final Map<String, Fault> always = new ConcurrentHashMap<>();
    private volatile Fault everyOtherPut;
    private volatile Fault gets;
    private volatile Fault heads;
    private volatile boolean refuseDeletes;

    void failPuts(String name, Fault... faults) {
        scripts.put(name, new ArrayDeque<>(List.of(faults)));
    }

    void alwaysFailPuts(String name, Fault fault) {
        always.put(name, fault);
    }

    void failEveryOtherPut(Fault fault) {
        this.everyOtherPut = fault;
    }

    void failGets(Fault fault) {
        this.gets = fault;
    }

    void failHeads(Fault fault) {
        this.heads = fault;
    }

    void refuseDeletes() {
        this.refuseDeletes = true;
    }

    void recover() {
        everyOtherPut = null;
        gets = null;
        heads = null;
        refuseDeletes = false;
    }

    boolean refusesDeletes() {
        return refuseDeletes;
    }

    /** The fault every GET gets, or null. */
    Fault getFault() {
        return gets;
    }

    /** The fault every HEAD gets, or null. */
    Fault headFault() {
        return heads;
    }

    /** The fault of the {@code nth} object PUT (counted from 1, any key), of the object named {@code name}; or null. */
    Fault putFault(String name, int nth) {
        Fault everyOther = everyOtherPut;
        if (everyOther != null && nth % 2 == 1) {
            return everyOther;
        }
        Fault fault = always.get(name);
        if (fault != null) {
            return fault;
        }
        Deque<Fault> script = scripts.get(name);
        return script == null ? null : script.pollFirst();
    }
}
