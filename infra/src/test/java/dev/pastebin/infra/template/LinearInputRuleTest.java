package dev.pastebin.infra.template;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.pastebin.local.template.CloudFormationTemplate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every pattern that runs on a client's input matches in time linear in the input: the product's classes do not
 * use {@code java.util.regex} (a backtracking engine: one Accept header of 9,000 characters once cost a second of
 * CPU) but RE2/J, or a scanner of their own. The few classes whose patterns only ever see what the stack itself or
 * its operator wrote are listed below, each with the reason; a new one must be added here, deliberately.
 *
 * <p>{@code String.split} with a one-character separator is not a regular expression (the JDK's fast path) and is
 * not looked at; a longer separator is, so the rule cannot see it: review it as a pattern.
 */
class LinearInputRuleTest {

    /** Classes that may use java.util.regex, and why their input is never a client's. */
    static final Map<String, String> ALLOWED = Map.of(
            "dev.pastebin.core.failure.DatabaseConnectionDiagnosis",
            "reads PostgreSQL's and pgjdbc's error messages",
            "dev.pastebin.edgeacl.Reasons",
            "shortens exception messages into CloudFormation's Reason",
            "dev.pastebin.edgeacl.EdgeAclRequest",
            "parses the StackId of CloudFormation's own event",
            "dev.pastebin.migrate.Reasons",
            "shortens exception messages into CloudFormation's Reason",
            "dev.pastebin.migrate.SchemaRequest",
            "reads the Release of CloudFormation's own event",
            "dev.pastebin.moderation.ModerationService",
            "checks the operator's IAM-authenticated command, with a pattern without nested quantifiers",
            "dev.pastebin.read.AbuseContact",
            "checks the operator's configured abuse contact at start-up");

    @Test
    void noClassOfTheProductMatchesAClientsInputWithABacktrackingEngine() {
        JavaClasses product = new ClassFileImporter().importPaths(productClassDirectories());
        assertTrue(product.size() > 100, "the product's classes: " + product.size());
        DescribedPredicate<JavaCall<?>> backtracking = target(owner(nameMatching("java\\.util\\.regex\\..*")))
                .or(target(owner(nameMatching("java\\.lang\\.String")))
                        .and(target(nameMatching("matches|replaceAll|replaceFirst"))))
                .as("java.util.regex (Pattern, Matcher) or String.matches/replaceAll/replaceFirst");
        noClasses()
                .that(DescribedPredicate.<JavaClass>describe(
                        "are not allowed to (LinearInputRuleTest.ALLOWED)",
                        javaClass -> !ALLOWED.containsKey(javaClass.getName())
                                && !ALLOWED.containsKey(javaClass.getName().replaceAll("\\$.*", ""))))
                .should()
                .callMethodWhere(backtracking)
                .because("a client's input must be matched in linear time: use com.google.re2j.Pattern or a scanner")
                .check(product);
    }

    /** core, api-core and every function module of infra/template.yaml (their CodeUri), as Maven compiled them. */
    private static List<Path> productClassDirectories() {
        CloudFormationTemplate template = InfraTemplate.load();
        List<Path> directories = new ArrayList<>();
        directories.add(InfraTemplate.INFRA.resolve("../core/target/classes").normalize());
        directories.add(
                InfraTemplate.INFRA.resolve("../api-core/target/classes").normalize());
        for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
            directories.add(InfraTemplate.INFRA
                    .resolve(String.valueOf(template.properties(function).get("CodeUri")))
                    .resolve("target/classes")
                    .normalize());
        }
        for (Path directory : directories) {
            assertTrue(Files.isDirectory(directory), directory + " is not built: build the modules first (mvn verify)");
        }
        return directories.stream().distinct().toList();
    }
}
