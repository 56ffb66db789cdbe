package dev.pastebin.infra.template;

import dev.pastebin.local.template.CloudFormationTemplate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Where infra/template.yaml is, read by the local runtime's template reader. */
final class InfraTemplate {

    static final Path INFRA = locateInfra();
    static final Path FILE = INFRA.resolve("template.yaml");

    private InfraTemplate() {}

    /** The edge's custom-resource function (edge-acl-function): no database, no bucket, no VPC, a role of its own. */
    static final String EDGE_ACL_FUNCTION = "EdgeAclFunction";

    /**
     * The functions that use the database, each as its own role: requests, the queue, the schedule and the operator's
     * moderation commands. The others reach AWS only (ModerationOutboxFunction, {@link #EDGE_ACL_FUNCTION},
     * DatabaseProtectionFunction) or are CloudFormation's, called during a deploy (DatabaseMigrationFunction);
     * TemplateTest lists every function.
     */
    static final List<String> PRODUCT_FUNCTIONS = List.of(
            "CreatePasteFunction",
            "ReadPasteFunction",
            "RemovePasteFunction",
            "UploadPasteFunction",
            "SweeperFunction",
            "ReportPasteFunction",
            "ModerationFunction",
            "PrivateBinFunction");

    /** True when the function overrides the Globals' VpcConfig with none: it reaches AWS directly, not the database. */
    static boolean outsideTheVpc(CloudFormationTemplate template, String function) {
        return Map.of("Ref", "AWS::NoValue")
                .equals(template.properties(function).get("VpcConfig"));
    }

    static CloudFormationTemplate load() {
        return CloudFormationTemplate.load(FILE);
    }

    private static Path locateInfra() {
        // Maven runs tests in the module directory (infra/); an IDE may run them from the repository root.
        for (Path candidate : List.of(Path.of(""), Path.of("infra"))) {
            if (Files.isRegularFile(candidate.resolve("template.yaml"))) {
                return candidate.toAbsolutePath().normalize();
            }
        }
        throw new IllegalStateException(
                "infra/template.yaml not found from " + Path.of("").toAbsolutePath());
    }
}
