package dev.pastebin.customresource;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.CloudFormationCustomResourceEvent;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.lambda.powertools.cloudformation.AbstractCustomResourceHandler;
import software.amazon.lambda.powertools.cloudformation.Response;

/**
 * Powertools' custom-resource handler, whose answer's delivery is checked: a PUT to the pre-signed ResponseURL that
 * S3 refuses is a send failure, logged at ERROR with the status, because CloudFormation then waits for the
 * resource's ServiceTimeout and fails it with "did not receive a response". The invocation itself still ends
 * normally: there is no one else to tell.
 */
public abstract class CustomResourceHandler extends AbstractCustomResourceHandler {

    private static final Logger LOG = LoggerFactory.getLogger(CustomResourceHandler.class);

    /** @param client the HTTP client for the PUT (Powertools' default is the SDK's URL-connection client) */
    protected CustomResourceHandler(SdkHttpClient client) {
        super(new ResponseUrlClient(client));
    }

    /**
     * Powertools has logged the failure with the full URL; this line says what it means, without the URL's
     * signature.
     */
    @Override
    protected void onSendFailure(
            CloudFormationCustomResourceEvent event, Context context, Response response, Exception exception) {
        LOG.error(
                "CloudFormation did not receive the {} answer to {} {} of stack {}, sent to {}: {}. CloudFormation"
                        + " fails the resource only after its ServiceTimeout. Check that the function can PUT to"
                        + " that bucket (in a VPC: the S3 endpoint's policy)",
                response == null ? "FAILED" : response.getStatus(),
                event.getRequestType(),
                event.getLogicalResourceId(),
                event.getStackId(),
                withoutQuery(event.getResponseUrl()),
                exception.getMessage());
    }

    /** The URL's scheme, host and path: its query is the pre-signature. */
    static String withoutQuery(String url) {
        try {
            URI uri = URI.create(url);
            return uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath();
        } catch (RuntimeException e) {
            return "the ResponseURL";
        }
    }
}
