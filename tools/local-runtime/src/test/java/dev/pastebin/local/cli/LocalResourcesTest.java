package dev.pastebin.local.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.local.template.CloudFormationTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalResourcesTest {

    /**
     * A function is given a secret's ARN ({@code !Ref}) and reads the value itself; locally Secrets Manager takes the
     * secret's name as well, so the name stands for the ARN: the {@code --physical-name}, else its Name, else its
     * logical id.
     */
    @Test
    void aSecretsRefIsItsLocalName(@TempDir Path directory) throws IOException {
        Path file = Files.writeString(directory.resolve("template.yaml"), """
                Resources:
                  KeySecret:
                    Type: AWS::SecretsManager::Secret
                  NamedSecret:
                    Type: AWS::SecretsManager::Secret
                    Properties:
                      Name: its-name
                  OtherSecret:
                    Type: AWS::SecretsManager::Secret
                """);
        var resources = new LocalResources(
                CloudFormationTemplate.load(file), Map.of("KeySecret", "local-key"), null, "us-east-1", "000000000000");

        assertEquals(Optional.of("local-key"), resources.ref("KeySecret"));
        assertEquals(Optional.of("its-name"), resources.ref("NamedSecret"));
        assertEquals(Optional.of("OtherSecret"), resources.ref("OtherSecret"));
    }
}
