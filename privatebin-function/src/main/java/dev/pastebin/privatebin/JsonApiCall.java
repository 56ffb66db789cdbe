package dev.pastebin.privatebin;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import io.micronaut.core.annotation.Nullable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Whether a request wants PrivateBin's JSON API or its web page, decided as PrivateBin's {@code Request} decides it:
 * {@code X-Requested-With: JSONHttpRequest} (what pbincli, pbcli and the Go client send), or an Accept that names
 * JSON but no HTML, or whose first type by quality among HTML and JSON is JSON.
 *
 * <p>Bounded work whatever the header: the ranges are matched by RE2/J, in time linear in their length, and only
 * the first {@value #MAX_ACCEPT_LENGTH} characters and {@value #MAX_RANGES} ranges are read (a browser's Accept is a
 * few hundred characters; a longer one only makes the answer dearer to compute).
 */
final class JsonApiCall {

    static final String X_REQUESTED_WITH = "X-Requested-With";
    static final String JSON_HTTP_REQUEST = "JSONHttpRequest";

    private static final String JSON = "application/json";
    private static final String HTML = "text/html";
    private static final String XHTML = "application/xhtml+xml";
    private static final Pattern MEDIA_RANGE = Pattern.compile(
            "(\\*/\\*|[a-z\\-]+/[a-z\\-+*]+(?:\\s*;\\s*[^q]\\S*)*)(?:\\s*;\\s*q\\s*=\\s*(0(?:\\.\\d{0,3})|1(?:\\.0{0,3})))?");

    static final int MAX_ACCEPT_LENGTH = 1024;
    static final int MAX_RANGES = 32;

    private record Range(String type, double quality, int order) {}

    private JsonApiCall() {}

    static boolean detect(@Nullable String requestedWith, @Nullable String accept) {
        String acceptHeader = accept == null ? "" : accept.substring(0, Math.min(accept.length(), MAX_ACCEPT_LENGTH));
        if (JSON_HTTP_REQUEST.equals(requestedWith)
                || (acceptHeader.contains(JSON) && !acceptHeader.contains(HTML) && !acceptHeader.contains(XHTML))) {
            return true;
        }
        // the types by quality, highest first; among equals, in the order given
        List<Range> ranges = new ArrayList<>();
        String[] given = acceptHeader.strip().split(",", MAX_RANGES + 1);
        for (int i = 0; i < Math.min(given.length, MAX_RANGES); i++) {
            Matcher match = MEDIA_RANGE.matcher(given[i].strip());
            if (!match.find()) {
                continue;
            }
            double quality = match.group(2) == null ? 1.0 : Double.parseDouble(match.group(2));
            if (quality > 0) {
                ranges.add(new Range(match.group(1).toLowerCase(Locale.ROOT), quality, ranges.size()));
            }
        }
        ranges.sort(Comparator.<Range>comparingDouble(Range::quality).reversed().thenComparingInt(Range::order));
        for (Range range : ranges) {
            if (range.type().startsWith(HTML) || range.type().startsWith(XHTML)) {
                return false;
            }
            if (range.type().startsWith(JSON)) {
                return true;
            }
        }
        return false;
    }
}
