package dev.pastebin.faults;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What reached the proxy, faulted or not: requests by operation, object PUTs by key, DeleteObjects calls by their
 * number of keys, and the faults answered. Counting starts when the proxy starts; there is no reset.
 */
final class RequestCounts {

    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private final Map<String, PutCount> puts = new ConcurrentHashMap<>();
    private final AtomicInteger objectPuts = new AtomicInteger();
    private final AtomicInteger faulted = new AtomicInteger();
    private final AtomicInteger faultedGets = new AtomicInteger();
    private final List<Integer> deleteObjectsKeys = new CopyOnWriteArrayList<>();

    void countRequest(String operation) {
        requests.computeIfAbsent(operation, o -> new AtomicInteger()).incrementAndGet();
    }

    /** Counts an object PUT of any key; returns its number, from 1. */
    int countObjectPut() {
        return objectPuts.incrementAndGet();
    }

    void countPut(String key, boolean faulted) {
        puts.merge(key, new PutCount(1, faulted ? 1 : 0), PutCount::plus);
    }

    void countDeleteObjects(int keys) {
        deleteObjectsKeys.add(keys);
    }

    void countFault() {
        faulted.incrementAndGet();
    }

    void countFaultedGet() {
        faultedGets.incrementAndGet();
    }

    Map<String, Integer> requestsByOperation() {
        Map<String, Integer> counts = new TreeMap<>();
        requests.forEach((operation, count) -> counts.put(operation, count.get()));
        return counts;
    }

    Map<String, PutCount> putsByKey() {
        return new TreeMap<>(puts);
    }

    Map<String, PutCount> putsByObjectName() {
        Map<String, PutCount> byName = new HashMap<>();
        puts.forEach((key, count) -> byName.merge(Request.objectName(key), count, PutCount::plus));
        return byName;
    }

    List<Integer> deleteObjectsCalls() {
        return List.copyOf(deleteObjectsKeys);
    }

    int objectPuts() {
        return objectPuts.get();
    }

    int faults() {
        return faulted.get();
    }

    int faultedGets() {
        return faultedGets.get();
    }
}
