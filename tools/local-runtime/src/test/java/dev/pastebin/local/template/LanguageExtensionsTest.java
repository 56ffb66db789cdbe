package dev.pastebin.local.template;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LanguageExtensionsTest {

    private static final String TEMPLATE = """
            Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]
            Parameters:
              Mode: {Type: String, Default: open}
            Conditions:
              Guarded: !Equals [!Ref Mode, guarded]
              InChina: !Equals [!Ref AWS::Partition, aws-cn]
            Resources:
              Api:
                Type: AWS::Serverless::HttpApi
                Properties:
                  Auth: !If [Guarded, {DefaultAuthorizer: Oidc}, !Ref AWS::NoValue]
                  Description: !If [InChina, china, elsewhere]
            """;

    private static Map<String, Object> apiProperties(Map<String, Object> root) {
        Map<String, Object> api = CloudFormationTemplate.mapping(
                CloudFormationTemplate.mapping(root.get("Resources"), "Resources")
                        .get("Api"),
                "Api");
        return CloudFormationTemplate.mapping(api.get("Properties"), "Properties");
    }

    @Test
    void theParametersDecideWhatSamReadsAndTheRestIsLeftForCloudFormation(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("template.yaml"), TEMPLATE);
        for (var mode : Map.of("open", Map.of(), "guarded", Map.of("DefaultAuthorizer", "Oidc"))
                .entrySet()) {
            CloudFormationTemplate template = CloudFormationTemplate.load(file, Map.of("Mode", mode.getKey()));
            Map<String, Object> expanded = LanguageExtensions.expandedForSam(template, template.root());
            assertEquals(List.of("AWS::Serverless-2016-10-31"), expanded.get("Transform"));
            Map<String, Object> properties = apiProperties(expanded);
            assertEquals(mode.getValue().isEmpty() ? null : mode.getValue(), properties.get("Auth"), mode.getKey());
            assertEquals(
                    Map.of("Fn::If", List.of("InChina", "china", "elsewhere")),
                    properties.get("Description"),
                    "a pseudo parameter's condition is CloudFormation's to decide");
        }
    }
}
