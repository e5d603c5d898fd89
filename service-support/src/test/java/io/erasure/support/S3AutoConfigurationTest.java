package io.erasure.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import software.amazon.awssdk.services.s3.S3Client;

class S3AutoConfigurationTest {

    private final ApplicationContextRunner contextRunner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(S3AutoConfiguration.class));

    @Test
    void withoutBucketThereIsNoS3Client() {
        contextRunner.run(context -> assertThat(context)
                .hasNotFailed()
                .doesNotHaveBean(S3Client.class)
                .doesNotHaveBean(S3HealthIndicator.class));
    }

    @Test
    void bindsEveryPropertyAndBuildsTheClientAndItsHealthIndicator() {
        contextRunner
                .withPropertyValues(
                        "erasure.s3.endpoint=http://127.0.0.1:9000",
                        "erasure.s3.region=eu-west-1",
                        "erasure.s3.access-key=AK",
                        "erasure.s3.secret-key=SK",
                        "erasure.s3.bucket=platform",
                        "erasure.s3.path-style=true")
                .run(context -> {
                    assertThat(context).hasSingleBean(S3Client.class).hasBean("s3HealthIndicator");
                    assertThat(context.getBean(S3Properties.class))
                            .isEqualTo(new S3Properties(
                                    URI.create("http://127.0.0.1:9000"), "eu-west-1", "AK", "SK", "platform", true));
                    assertThat(context.getBean(S3Client.class)
                                    .serviceClientConfiguration()
                                    .region()
                                    .id())
                            .isEqualTo("eu-west-1");
                });
    }

    @Test
    void defaultsSuitRealAws() {
        contextRunner
                .withPropertyValues("erasure.s3.bucket=platform", "erasure.s3.endpoint=")
                .run(context -> assertThat(context.getBean(S3Properties.class))
                        .isEqualTo(new S3Properties(null, "us-east-1", null, null, "platform", false)));
    }

    @Test
    void healthIndicatorCanBeSwitchedOff() {
        contextRunner
                .withPropertyValues("erasure.s3.bucket=platform", "management.health.s3.enabled=false")
                .run(context ->
                        assertThat(context).hasSingleBean(S3Client.class).doesNotHaveBean("s3HealthIndicator"));
    }

    @Test
    void healthIsDownWithTheErrorWhenS3CannotBeReached() throws IOException {
        contextRunner
                .withPropertyValues(
                        "erasure.s3.endpoint=http://127.0.0.1:" + closedPort(),
                        "erasure.s3.access-key=AK",
                        "erasure.s3.secret-key=SK",
                        "erasure.s3.bucket=platform",
                        "erasure.s3.path-style=true")
                .run(context -> {
                    Health health = context.getBean(S3HealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.getDetails())
                            .containsEntry("bucket", "platform")
                            .containsKey("error");
                });
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
