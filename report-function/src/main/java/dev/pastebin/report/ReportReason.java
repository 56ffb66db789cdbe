package dev.pastebin.report;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Why a paste is reported: a short fixed list, so that the operator can sort reports without reading them. */
public enum ReportReason {
    ILLEGAL("illegal"),
    MALWARE("malware"),
    PHISHING("phishing"),
    PERSONAL_DATA("personal-data"),
    COPYRIGHT("copyright"),
    SPAM("spam"),
    OTHER("other");

    private final String wireName;

    ReportReason(String wireName) {
        this.wireName = wireName;
    }

    /** The name a client sends and the database stores. */
    public String wireName() {
        return wireName;
    }

    public static Optional<ReportReason> of(String wireName) {
        return Arrays.stream(values())
                .filter(reason -> reason.wireName.equals(wireName))
                .findFirst();
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(ReportReason::wireName).toList();
    }
}
