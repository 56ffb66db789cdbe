package dev.pastebin.local.template;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Loads CloudFormation/SAM YAML. Short-form intrinsic tags are turned into their long form, the way
 * CloudFormation reads them: {@code !Ref X} becomes {@code {Ref: X}}, {@code !GetAtt A.B} becomes
 * {@code {Fn::GetAtt: [A, B]}}, {@code !Condition C} becomes {@code {Condition: C}} and any other
 * {@code !Name v} becomes {@code {Fn::Name: v}}. Used by the template reader of the local runtime.
 */
public final class CloudFormationYaml {

    private CloudFormationYaml() {}

    public static Object load(String text) {
        return new Yaml(new IntrinsicConstructor(new LoaderOptions())).load(text);
    }

    private static final class IntrinsicConstructor extends SafeConstructor {

        IntrinsicConstructor(LoaderOptions options) {
            super(options);
            yamlMultiConstructors.put("!", new AbstractConstruct() {
                @Override
                public Object construct(Node node) {
                    String name = node.getTag().getValue().substring(1);
                    Object value = switch (node) {
                        case ScalarNode scalar -> constructScalar(scalar);
                        case SequenceNode sequence -> constructSequence(sequence);
                        case MappingNode mapping -> constructMapping(mapping);
                        default -> throw new IllegalArgumentException("unexpected YAML node " + node);
                    };
                    if (name.equals("Ref") || name.equals("Condition")) {
                        return Map.of(name, value);
                    }
                    if (name.equals("GetAtt") && value instanceof String dotted) {
                        return Map.of("Fn::GetAtt", List.of(Arrays.copyOf(dotted.split("\\.", 2), 2)));
                    }
                    return Map.of("Fn::" + name, value);
                }
            });
        }
    }
}
