package dev.pastebin.local.template;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TemplateValuesTest {

    /** Answers for a queue Q and the region, nothing else. */
    private static final ResourceAttributes RESOURCES = new ResourceAttributes() {
        @Override
        public Optional<String> ref(String logicalId) {
            return switch (logicalId) {
                case "Q" -> Optional.of("http://localhost:4566/queue/q");
                case "AWS::Region" -> Optional.of("eu-west-1");
                default -> Optional.empty();
            };
        }

        @Override
        public Optional<String> getAtt(String logicalId, String attribute) {
            return logicalId.equals("Q") && attribute.equals("Arn")
                    ? Optional.of("arn:aws:sqs:eu-west-1:1:q")
                    : Optional.empty();
        }
    };

    private static Object yaml(String value) {
        return ((Map<?, ?>) CloudFormationYaml.load("v: " + value)).get("v");
    }

    private static Optional<String> resolve(String value) {
        return TemplateValues.resolve(yaml(value), RESOURCES);
    }

    @Test
    void literalsAndTheIntrinsicsTheResourcesAnswer() {
        assertEquals(Optional.of("text"), resolve("text"));
        assertEquals(Optional.of("6"), resolve("6"));
        assertEquals(Optional.of("true"), resolve("true"));
        assertEquals(Optional.of("http://localhost:4566/queue/q"), resolve("!Ref Q"));
        assertEquals(Optional.of("arn:aws:sqs:eu-west-1:1:q"), resolve("!GetAtt Q.Arn"));
        assertEquals(Optional.of("arn:aws:sqs:eu-west-1:1:q"), resolve("{'Fn::GetAtt': [Q, Arn]}"));
        assertEquals(
                Optional.of("eu-west-1:arn:aws:sqs:eu-west-1:1:q:${literal}"),
                resolve("!Sub '${AWS::Region}:${Q.Arn}:${!literal}'"));
        assertEquals(Optional.of("a-eu-west-1"), resolve("!Join ['-', [a, !Ref 'AWS::Region']]"));
    }

    @Test
    void whatNobodyAnswersIsUnresolved() {
        assertEquals(Optional.empty(), resolve("!Ref Unknown"));
        assertEquals(Optional.empty(), resolve("!GetAtt Q.QueueName"));
        assertEquals(Optional.empty(), resolve("!Sub '${Unknown}'"));
        assertEquals(Optional.empty(), resolve("!If [C, a, b]"));
        List<String> unresolved = new ArrayList<>();
        assertEquals(
                Map.of("A", "1"),
                TemplateValues.resolveAll(Map.of("A", 1, "B", yaml("!Ref Unknown")), RESOURCES, unresolved));
        assertEquals(List.of("B"), unresolved);
    }
}
