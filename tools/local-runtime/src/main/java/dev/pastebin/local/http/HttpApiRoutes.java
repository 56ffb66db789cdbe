package dev.pastebin.local.http;

import dev.pastebin.local.lambda.LambdaFunction;
import dev.pastebin.local.template.FunctionDefinition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Route selection as an HTTP API does it: the most specific matching route wins (more literal segments
 * first, then {@code {param}}, then greedy {@code {proxy+}}), an exact method before ANY, and
 * {@code $default} only when nothing else matches.
 */
public final class HttpApiRoutes {

    /** @param authorizer the JWT authorizer a request passes before the function is invoked; empty: none */
    public record Target(
            LambdaFunction function, FunctionDefinition.HttpRoute route, Optional<JwtAuthorizer> authorizer) {}

    record Match(Target target, Map<String, String> pathParameters) {}

    private final List<Target> targets = new ArrayList<>();

    public void add(LambdaFunction function, FunctionDefinition.HttpRoute route) {
        add(function, route, Optional.empty());
    }

    public void add(LambdaFunction function, FunctionDefinition.HttpRoute route, Optional<JwtAuthorizer> authorizer) {
        targets.add(new Target(function, route, authorizer));
    }

    public List<Target> targets() {
        return List.copyOf(targets);
    }

    Optional<Match> match(String method, String rawPath) {
        List<String> segments = segments(rawPath);
        return targets.stream()
                .map(t -> matchOne(t, method, segments))
                .flatMap(Optional::stream)
                .max(Comparator.comparingInt(HttpApiRoutes::score));
    }

    private static Optional<Match> matchOne(Target t, String method, List<String> segments) {
        FunctionDefinition.HttpRoute route = t.route();
        if (!route.method().equals("ANY") && !route.method().equals(method)) {
            return Optional.empty();
        }
        if (route.path().equals("$default")) {
            return Optional.of(new Match(t, Map.of()));
        }
        List<String> pattern = segments(route.path());
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < pattern.size(); i++) {
            String p = pattern.get(i);
            if (p.startsWith("{") && p.endsWith("+}")) {
                if (i >= segments.size()) {
                    return Optional.empty();
                }
                params.put(p.substring(1, p.length() - 2), String.join("/", segments.subList(i, segments.size())));
                return Optional.of(new Match(t, params));
            }
            if (i >= segments.size()) {
                return Optional.empty();
            }
            String s = segments.get(i);
            if (p.startsWith("{") && p.endsWith("}")) {
                if (s.isEmpty()) {
                    return Optional.empty();
                }
                params.put(p.substring(1, p.length() - 1), HttpApiEvents.decode(s));
            } else if (!p.equals(s)) {
                return Optional.empty();
            }
        }
        return pattern.size() == segments.size() ? Optional.of(new Match(t, params)) : Optional.empty();
    }

    private static int score(Match m) {
        FunctionDefinition.HttpRoute route = m.target().route();
        if (route.path().equals("$default")) {
            return Integer.MIN_VALUE;
        }
        int score = 0;
        for (String p : segments(route.path())) {
            score += p.endsWith("+}") ? 1 : p.startsWith("{") ? 10 : 100;
        }
        return score * 2 + (route.method().equals("ANY") ? 0 : 1);
    }

    private static List<String> segments(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        return p.isEmpty() ? List.of() : List.of(p.split("/", -1));
    }
}
