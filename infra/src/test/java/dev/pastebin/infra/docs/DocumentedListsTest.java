package dev.pastebin.infra.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.pastebin.infra.docs.DocumentedProseTest.Doc;
import dev.pastebin.infra.template.SdkClients;
import dev.pastebin.local.template.CloudFormationTemplate;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The counts and lists of the stack's functions, database roles, secrets, alarms and SDK clients that README.md and
 * docs/ state in prose, held to infra/template.yaml as it is when the test runs (and, for the SDK clients, to the
 * function modules' poms and sources), so that a function, role, secret or alarm added to the template fails the
 * build until the prose says so. The convention is in docs/testing.md, "Documents held to the code":
 *
 * <ul>
 *   <li>a list or a count of a subset is marked: {@code <!-- template: HTTP functions -->create, read, remove,
 *       report and privatebin<!-- /template -->}; the names inside must be exactly the set's and every number the
 *       set's size ({@link #KINDS} names the sets);
 *   <li>a count outside a marker ("eleven functions", "8 role secrets", "the five HTTP functions") must be the
 *       whole set's: a subset needs its marker;
 *   <li>a list of three or more function names in a sentence about functions, or of three or more role secrets or
 *       roles, must be marked: with its set, or with {@code <!-- template: none -->} when it is no set of the
 *       template's (the benchmarked functions, say).
 * </ul>
 */
class DocumentedListsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final CloudFormationTemplate TEMPLATE = CloudFormationTemplate.load(Path.of("template.yaml"));

    private static final Pattern SPAN =
            Pattern.compile("<!--\\s*template:\\s*(.*?)\\s*-->(.*?)<!--\\s*/template\\s*-->", Pattern.DOTALL);
    private static final Pattern MARKER = Pattern.compile("<!--\\s*/?template\\b.*?-->", Pattern.DOTALL);
    private static final Pattern COMMENT = Pattern.compile("<!--.*?-->", Pattern.DOTALL);
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");
    private static final String NONE = "none";
    private static final String SDK_CLIENTS = "SDK clients";

    private static final List<String> UNITS =
            List.of("one", "two", "three", "four", "five", "six", "seven", "eight", "nine");
    private static final List<String> TEENS = List.of(
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen");
    private static final List<String> TENS = List.of("twenty", "thirty", "forty", "fifty");
    private static final String NUMBER = "(?:\\d+|(?:" + String.join("|", TENS) + ")(?:-(?:" + String.join("|", UNITS)
            + "))?|" + String.join("|", TEENS) + "|" + String.join("|", UNITS) + ")";
    private static final Pattern NUMBER_IN_SPAN = Pattern.compile("(?i)(?<![\\w.$-])(" + NUMBER + ")(?![\\w-]|\\.\\d)");
    /** "eleven functions", "8 role secrets", "the five HTTP functions": a number, up to two words, a counted noun. */
    private static final Pattern COUNT = Pattern.compile("(?i)(?<![\\w.$-])(" + NUMBER
            + ")\\s+(?:[a-z'’-]+\\s+){0,2}?(function modules|functions|role secrets|database roles|roles|secrets"
            + "|alarms)\\b");

    private static final Pattern ALL_N = Pattern.compile("(?i)\\ball (" + NUMBER + ")\\b");
    private static final Map<String, String> KIND_OF_NOUN = Map.of(
            "function modules", "functions",
            "functions", "functions",
            "role secrets", "role secrets",
            "database roles", "database roles",
            "roles", "database roles",
            "secrets", "secrets",
            "alarms", "alarms");

    /** How prose names a function besides its module's short name, module and logical id. */
    private static final Map<String, List<String>> PROSE_NAMES = Map.of(
            "privatebin", List.of("PrivateBin"),
            "moderation-outbox", List.of("moderation outbox"),
            "migrate", List.of("migration"),
            "edge-acl", List.of("edge's web ACL"),
            "database-protection", List.of("database protection"));

    /** How prose names an SDK service: the artifact id, spelled as AWS spells the service. */
    private static final Map<String, String> SERVICE_NAMES = Map.of(
            "s3", "S3",
            "sqs", "SQS",
            "secretsmanager", "Secrets Manager",
            "sns", "SNS",
            "cloudfront", "CloudFront",
            "cloudformation", "CloudFormation",
            "rds", "RDS");

    private static final Map<String, String> MODULES = functionModules();
    /** Each function's SDK services its own module declares or imports (core's shared clients aside). */
    private static final Map<String, Set<String>> SDK = sdkClients();

    private static final Map<String, Listed> KINDS = kinds();

    /** The sets a marker may name: its members (each with the names prose gives it) out of a universe of names. */
    private static Map<String, Listed> kinds() {
        Map<String, List<String>> functions = new TreeMap<>();
        MODULES.forEach((function, module) -> {
            String name = shortName(function);
            List<String> aliases = new ArrayList<>(List.of(name, module, function));
            aliases.addAll(PROSE_NAMES.getOrDefault(name, List.of()));
            functions.put(name, aliases);
        });
        Map<String, Listed> kinds = new LinkedHashMap<>();
        kinds.put("functions", new Listed("functions", functions, functions.keySet()));
        kinds.put("HTTP functions", functionsWhere(functions, "HTTP functions", f -> hasEvent(f, "HttpApi")));
        kinds.put(
                "SnapStart functions",
                functionsWhere(
                        functions, "SnapStart functions", f -> TEMPLATE.functionProperty(f, "SnapStart") != null));
        kinds.put(
                "functions with a database role",
                functionsWhere(
                        functions,
                        "functions with a database role",
                        f -> TEMPLATE.environment(f).containsKey("PASTEBIN_DATABASE_SECRET_ID")));
        kinds.put(
                "functions that depend on DatabaseSchema",
                functionsWhere(
                        functions,
                        "functions that depend on DatabaseSchema",
                        f -> String.valueOf(TEMPLATE.resource(f).get("DependsOn"))
                                .matches(".*\\bDatabaseSchema\\b.*")));
        kinds.put(
                "functions with an S3 client",
                functionsWhere(functions, "functions with an S3 client", f -> sdk(f).contains("s3")));
        kinds.put(
                "functions with an SQS client",
                functionsWhere(functions, "functions with an SQS client", f -> sdk(f).contains("sqs")));

        Map<String, List<String>> roles = new TreeMap<>();
        for (String role : databaseRoles()) {
            roles.put(role, List.of(role, role.replaceFirst("^pastebin_", "")));
        }
        kinds.put("database roles", new Listed("database roles", roles, roles.keySet()));

        Map<String, List<String>> roleSecrets = new TreeMap<>();
        for (String secret : roleSecrets()) {
            String prefix = secret.replaceFirst("DatabaseRoleSecret$", "");
            roleSecrets.put(secret, List.of(secret, prefix + "DatabaseSecretArn", prefix.toLowerCase(Locale.ROOT)));
        }
        kinds.put("role secrets", new Listed("role secrets", roleSecrets, roleSecrets.keySet()));

        Map<String, List<String>> secrets = new TreeMap<>();
        for (String secret : TEMPLATE.resourcesOfType("AWS::SecretsManager::Secret")) {
            secrets.put(secret, List.of(secret));
        }
        for (String cluster : TEMPLATE.resourcesOfType("AWS::RDS::DBCluster")) {
            if (Boolean.TRUE.equals(TEMPLATE.properties(cluster).get("ManageMasterUserPassword"))) {
                secrets.put(cluster + ".MasterUserSecret", List.of(cluster + ".MasterUserSecret", "master secret"));
            }
        }
        kinds.put("secrets", new Listed("secrets (and RDS's master secret)", secrets, secrets.keySet()));

        Map<String, List<String>> alarms = new TreeMap<>();
        for (String alarm : TEMPLATE.resourcesOfType("AWS::CloudWatch::Alarm")) {
            alarms.put(alarm, List.of(alarm));
        }
        kinds.put("alarms", new Listed("alarms", alarms, alarms.keySet()));
        return kinds;
    }

    // --- the checks -------------------------------------------------------------------------------------------

    /** Every marked list names exactly its set, and every number in it is the set's size. */
    @Test
    void everyMarkedCountAndListIsTheTemplates() throws IOException {
        List<String> wrong = new ArrayList<>();
        int marked = 0;
        for (Doc doc : Doc.all()) {
            String text = doc.text();
            String markers = withoutCode(text);
            List<int[]> spans = new ArrayList<>();
            Matcher m = SPAN.matcher(markers);
            while (m.find()) {
                spans.add(new int[] {m.start(), m.end()});
                String kind = m.group(1);
                String content = text.substring(m.start(2), m.end(2))
                        .replaceAll("\\s+", " ")
                        .strip();
                String where = doc.name() + " line " + line(text, m.start(2)) + " (<!-- template: " + kind + " -->)";
                if (kind.equals(NONE)) {
                    continue;
                }
                marked++;
                if (kind.equals(SDK_CLIENTS)) {
                    checkSdkClients(where, content, wrong);
                    continue;
                }
                Listed listed = KINDS.get(kind);
                if (listed == null) {
                    wrong.add(where + ": no such set; a marker names one of " + KINDS.keySet() + ", " + SDK_CLIENTS
                            + " or " + NONE);
                    continue;
                }
                listed.check(where, content, wrong);
            }
            Matcher marker = MARKER.matcher(markers);
            while (marker.find()) {
                int at = marker.start();
                if (markers.substring(markers.lastIndexOf('\n', at - 1) + 1, at).isBlank()) {
                    wrong.add(doc.name() + " line " + line(text, at) + ": \"" + marker.group() + "\" starts the"
                            + " line, where Markdown reads a comment as an HTML block and splits the paragraph: put a"
                            + " word before it");
                }
                if (spans.stream().noneMatch(span -> span[0] <= at && at < span[1])) {
                    wrong.add(doc.name() + " line " + line(text, at) + ": \"" + marker.group()
                            + "\" without its pair (<!-- template: SET -->…<!-- /template -->)");
                }
            }
        }
        if (!wrong.isEmpty()) {
            fail("lists and counts marked in the docs against infra/template.yaml:\n" + String.join("\n", wrong));
        }
        assertTrue(marked >= 10, "the docs mark their lists of the template's sets: " + marked + " marked");
    }

    /**
     * Outside the markers: a count of functions, roles, role secrets, secrets or alarms is the whole set's, and a
     * list of functions (in a sentence about functions), of role secrets or of roles is marked.
     */
    @Test
    void noUnmarkedCountOrListDisagreesWithTheTemplate() throws IOException {
        Listed functions = KINDS.get("functions");
        Pattern functionList = functions.listPattern();
        List<String> identifierLists = List.of("role secrets", "database roles");
        List<String> wrong = new ArrayList<>();
        for (Doc raw : Doc.all()) {
            Doc doc = Doc.of(raw.name(), unmarked(raw.text()));
            for (Sentence sentence : sentences(doc)) {
                Matcher count = COUNT.matcher(sentence.text());
                while (count.find()) {
                    int stated = value(count.group(1));
                    Listed listed = KINDS.get(KIND_OF_NOUN.get(count.group(2).toLowerCase(Locale.ROOT)));
                    if (stated >= 2 && stated != listed.size()) {
                        wrong.add(sentence.where(doc, count.start()) + ": \"" + count.group() + "\" counts " + stated
                                + "; " + listed.truth() + ". A count of part of them needs its marker");
                    }
                }
                boolean aboutFunctions =
                        sentence.text().toLowerCase(Locale.ROOT).contains("function");
                Matcher all = ALL_N.matcher(sentence.text());
                while (aboutFunctions && all.find()) {
                    if (value(all.group(1)) != functions.size()) {
                        wrong.add(sentence.where(doc, all.start()) + ": \"" + all.group() + "\" in \""
                                + sentence.text().strip() + "\"; " + functions.truth());
                    }
                }
                Matcher list = functionList.matcher(sentence.text());
                while (aboutFunctions && list.find()) {
                    Set<String> named = functions.namesIn(list.group());
                    if (named.size() >= 3) {
                        wrong.add(sentence.where(doc, list.start()) + ": \"" + list.group()
                                + "\" lists functions without a marker: mark it with its set, or with <!-- template:"
                                + " none --> if it is no set of the template's (docs/testing.md, \"Documents held to"
                                + " the code\"); " + functions.truth());
                    }
                }
                for (String kind : identifierLists) {
                    Set<String> named = KINDS.get(kind).identifiersIn(sentence.text());
                    if (named.size() >= 3) {
                        wrong.add(sentence.where(doc, 0) + ": names " + named + " without a marker (<!-- template: "
                                + kind + " -->); " + KINDS.get(kind).truth());
                    }
                }
            }
        }
        if (!wrong.isEmpty()) {
            fail("counts and lists in the docs, outside markers, against infra/template.yaml:\n"
                    + String.join("\n", new LinkedHashSet<>(wrong)));
        }
    }

    /** A role secret the stack generates (DatabaseMode create) has its parameter (existing), and the other way. */
    @Test
    void everyRoleSecretHasItsParameter() {
        Set<String> generated = roleSecrets().stream()
                .map(secret -> secret.replaceFirst("DatabaseRoleSecret$", ""))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> passed = TEMPLATE.parameters().keySet().stream()
                .filter(parameter -> parameter.endsWith("DatabaseSecretArn"))
                .map(parameter -> parameter.replaceFirst("DatabaseSecretArn$", ""))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(
                generated,
                passed,
                "infra/template.yaml: the <X>DatabaseRoleSecret resources against the <X>DatabaseSecretArn parameters");
        assertEquals(
                databaseRoles().size(),
                generated.size(),
                "infra/template.yaml: one role secret per DatabaseSchema role " + databaseRoles());
    }

    // --- SDK clients ------------------------------------------------------------------------------------------

    /** "create and report: SQS; read and remove: S3; ...": each function's own SDK services, as its module has them. */
    private static void checkSdkClients(String where, String content, List<String> wrong) {
        Listed functions = KINDS.get("functions");
        Map<String, Set<String>> documented = new TreeMap<>();
        for (String group : content.split(";")) {
            int colon = group.lastIndexOf(':');
            if (colon < 0) {
                wrong.add(where + ": \"" + group.strip() + "\" is not \"functions: services\"");
                continue;
            }
            Set<String> services = new TreeSet<>();
            for (String service : group.substring(colon + 1).split(",|\\band\\b")) {
                String id = service.strip().replace(" ", "").toLowerCase(Locale.ROOT);
                if (id.isEmpty()) {
                    continue;
                }
                if (!SERVICE_NAMES.containsKey(id)) {
                    wrong.add(where + ": \"" + service.strip() + "\" is none of " + SERVICE_NAMES.values());
                }
                services.add(SERVICE_NAMES.getOrDefault(id, service.strip()));
            }
            Set<String> named = functions.namesIn(group.substring(0, colon));
            if (named.isEmpty()) {
                wrong.add(where + ": \"" + group.strip() + "\" names no function");
            }
            for (String function : named) {
                if (documented.put(function, services) != null) {
                    wrong.add(where + ": names " + function + " twice");
                }
            }
        }
        Map<String, Set<String>> actual = new TreeMap<>();
        SDK.forEach((function, services) -> {
            if (!services.isEmpty()) {
                actual.put(
                        shortName(function),
                        services.stream()
                                .map(s -> SERVICE_NAMES.getOrDefault(s, s))
                                .collect(Collectors.toCollection(TreeSet::new)));
            }
        });
        if (!documented.equals(actual)) {
            wrong.add(where + ": says " + documented + "; the function modules' own SDK clients (pom.xml, and"
                    + " imports in src/main/java) are " + actual);
        }
    }

    private static Set<String> sdk(String function) {
        return SDK.get(function);
    }

    private static Map<String, Set<String>> sdkClients() {
        Map<String, Set<String>> clients = new TreeMap<>();
        MODULES.forEach((function, module) -> {
            Set<String> services = SdkClients.of(ROOT.resolve(module));
            clients.put(function, services);
        });
        assertTrue(
                clients.values().stream().anyMatch(s -> s.contains("s3")),
                "the function modules' SDK clients were read: " + clients);
        return clients;
    }

    // --- the template -----------------------------------------------------------------------------------------

    /** Each function's logical id and its module (CodeUri's directory). */
    private static Map<String, String> functionModules() {
        Map<String, String> modules = new TreeMap<>();
        for (String function : TEMPLATE.resourcesOfType("AWS::Serverless::Function")) {
            modules.put(
                    function,
                    Path.of(String.valueOf(TEMPLATE.functionProperty(function, "CodeUri")))
                            .getFileName()
                            .toString());
        }
        assertTrue(modules.size() >= 5, "infra/template.yaml's functions: " + modules);
        return modules;
    }

    private static String shortName(String function) {
        return MODULES.get(function).replaceFirst("-function$", "");
    }

    private static Listed functionsWhere(Map<String, List<String>> functions, String what, Predicate<String> test) {
        Set<String> members = new TreeSet<>();
        MODULES.keySet().stream()
                .filter(test)
                .map(DocumentedListsTest::shortName)
                .forEach(members::add);
        assertTrue(!members.isEmpty(), "infra/template.yaml has " + what);
        return new Listed(what, functions, members);
    }

    private static boolean hasEvent(String function, String type) {
        Object events = TEMPLATE.properties(function).get("Events");
        return events instanceof Map<?, ?> map
                && map.values().stream().anyMatch(event -> event instanceof Map<?, ?> e && type.equals(e.get("Type")));
    }

    /** The roles the migration function gives a password from a secret: the DatabaseSchema resource's RoleSecrets. */
    private static Set<String> databaseRoles() {
        List<String> schema = TEMPLATE.resourcesOfType("Custom::DatabaseSchema");
        assertEquals(1, schema.size(), "infra/template.yaml's Custom::DatabaseSchema resources");
        Object roleSecrets = TEMPLATE.properties(schema.getFirst()).get("RoleSecrets");
        return new TreeSet<>(
                CloudFormationTemplate.mapping(roleSecrets, "RoleSecrets").keySet());
    }

    private static List<String> roleSecrets() {
        return TEMPLATE.resourcesOfType("AWS::SecretsManager::Secret").stream()
                .filter(secret -> secret.endsWith("DatabaseRoleSecret"))
                .toList();
    }

    // --- the text ---------------------------------------------------------------------------------------------

    /**
     * A set of the template's: its members (each with the names prose gives it) and the universe of names a list of
     * them is read with, so that a name of the universe outside the set shows as one too many.
     */
    record Listed(String what, Map<String, List<String>> universe, Set<String> members) {

        int size() {
            return members.size();
        }

        String truth() {
            return "infra/template.yaml has " + size() + " " + what + ": " + members;
        }

        void check(String where, String content, List<String> wrong) {
            Set<String> named = namesIn(content);
            List<Integer> numbers = new ArrayList<>();
            Matcher n = NUMBER_IN_SPAN.matcher(content);
            while (n.find()) {
                numbers.add(value(n.group(1)));
            }
            if (named.isEmpty() && numbers.isEmpty()) {
                wrong.add(where + ": \"" + content + "\" has neither a count nor a name of " + what);
            }
            for (int number : numbers) {
                if (number != size()) {
                    wrong.add(where + ": \"" + content + "\" counts " + number + "; " + truth());
                }
            }
            if (!named.isEmpty() && !named.equals(members)) {
                Set<String> missing = new TreeSet<>(members);
                missing.removeAll(named);
                Set<String> extra = new TreeSet<>(named);
                extra.removeAll(members);
                wrong.add(where + ": \"" + content + "\" names " + named
                        + (missing.isEmpty() ? "" : ", without " + missing)
                        + (extra.isEmpty() ? "" : ", and also " + extra) + "; " + truth());
            }
        }

        /** The members the text names, each alias matched once, longest first ("moderation-outbox" before "moderation"). */
        Set<String> namesIn(String text) {
            StringBuilder rest = new StringBuilder(text);
            Set<String> named = new TreeSet<>();
            List<Map.Entry<String, String>> aliases = new ArrayList<>();
            universe.forEach((member, names) -> names.forEach(alias -> aliases.add(Map.entry(alias, member))));
            aliases.sort(Comparator.comparingInt(
                            (Map.Entry<String, String> e) -> e.getKey().length())
                    .reversed());
            for (Map.Entry<String, String> alias : aliases) {
                Matcher m = aliasPattern(alias.getKey()).matcher(rest);
                while (m.find()) {
                    named.add(alias.getValue());
                    for (int i = m.start(); i < m.end(); i++) {
                        rest.setCharAt(i, ' ');
                    }
                }
            }
            return named;
        }

        /** The members named by an identifier of theirs (a logical id, a parameter, a role), not by a short name. */
        Set<String> identifiersIn(String text) {
            Set<String> named = new TreeSet<>();
            universe.forEach((member, names) -> {
                for (String alias : names) {
                    if ((alias.contains("_") || !alias.equals(alias.toLowerCase(Locale.ROOT)))
                            && aliasPattern(alias).matcher(text).find()) {
                        named.add(member);
                    }
                }
            });
            return named;
        }

        /** Two or more names of the universe joined by commas, "and", "or", "nor" or slashes. */
        Pattern listPattern() {
            String names = universe.values().stream()
                    .flatMap(List::stream)
                    .sorted(Comparator.comparingInt(String::length).reversed())
                    .map(Pattern::quote)
                    .collect(Collectors.joining("|"));
            String name = "(?<![\\w-])(?:the )?(?:" + names + ")(?:'s)?(?![\\w-])";
            return Pattern.compile("(?i)" + name + "(?:(?:, |,? and |,? or |,? nor |/)" + name + ")+");
        }

        private static Pattern aliasPattern(String alias) {
            return Pattern.compile("(?i)(?<![\\w-])" + Pattern.quote(alias) + "(?:'s)?(?![\\w-])");
        }
    }

    /** A sentence of a document's joined text: up to a full stop, a table cell's border or a blank line. */
    record Sentence(int offset, String text) {
        String where(Doc doc, int at) {
            return doc.name() + " line " + doc.lineOf(offset + at);
        }
    }

    private static List<Sentence> sentences(Doc doc) {
        List<Sentence> sentences = new ArrayList<>();
        Matcher boundary = Pattern.compile("\\. |\\||  ").matcher(doc.joined());
        int start = 0;
        while (boundary.find()) {
            sentences.add(new Sentence(start, doc.joined().substring(start, boundary.start())));
            start = boundary.end();
        }
        sentences.add(new Sentence(start, doc.joined().substring(start)));
        return sentences;
    }

    /**
     * The text with what the unmarked checks must not read blotted out, character for character so that lines keep
     * their numbers: fenced code, the marked spans, any other HTML comment and a code span that quotes one.
     */
    static String unmarked(String text) {
        StringBuilder out = new StringBuilder(withoutCode(text));
        for (Pattern hidden : List.of(SPAN, COMMENT)) {
            Matcher m = hidden.matcher(out.toString());
            while (m.find()) {
                blot(out, m.start(), m.end());
            }
        }
        return out.toString();
    }

    /** The text without fenced code and code spans that quote a marker (docs/testing.md does): no marker is there. */
    static String withoutCode(String text) {
        StringBuilder out = new StringBuilder(withoutFences(text));
        Matcher code = CODE_SPAN.matcher(out.toString());
        while (code.find()) {
            if (code.group().contains("<!--")) {
                blot(out, code.start(), code.end());
            }
        }
        return out.toString();
    }

    private static String withoutFences(String text) {
        StringBuilder out = new StringBuilder(text);
        boolean fenced = false;
        int lineStart = 0;
        for (String line : text.split("\n", -1)) {
            boolean fence = line.stripLeading().startsWith("```");
            if (fenced || fence) {
                blot(out, lineStart, lineStart + line.length());
            }
            if (fence) {
                fenced = !fenced;
            }
            lineStart += line.length() + 1;
        }
        return out.toString();
    }

    /** Not a space: a blotted span must not read as a blank line, which ends a sentence. */
    private static void blot(StringBuilder text, int from, int to) {
        for (int i = from; i < to; i++) {
            if (text.charAt(i) != '\n') {
                text.setCharAt(i, '·');
            }
        }
    }

    static int value(String number) {
        String word = number.toLowerCase(Locale.ROOT);
        if (word.matches("\\d+")) {
            return Integer.parseInt(word);
        }
        if (TEENS.contains(word)) {
            return 10 + TEENS.indexOf(word);
        }
        if (UNITS.contains(word)) {
            return 1 + UNITS.indexOf(word);
        }
        String[] parts = word.split("-");
        return 20 + 10 * TENS.indexOf(parts[0]) + (parts.length > 1 ? 1 + UNITS.indexOf(parts[1]) : 0);
    }

    private static int line(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}
