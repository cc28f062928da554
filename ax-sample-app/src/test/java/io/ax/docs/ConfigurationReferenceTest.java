package io.ax.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} is what {@link ConfigurationReference} makes of the metadata: every property of the
 * metadata is in it, with its description, and nothing else is. With {@code -Dax.docs.write=true} the test writes the
 * page instead of failing.
 */
class ConfigurationReferenceTest {

    private static final Path PAGE = Markdown.ROOT.resolve("docs/configuration.md");

    @Test
    void theReferenceIsTheMetadata() throws IOException {
        String made = ConfigurationReference.markdown();
        if (Boolean.getBoolean("ax.docs.write")) {
            Files.writeString(PAGE, made);
        }
        assertThat(PAGE)
                .as("the configuration reference (-Dax.docs.write=true writes it)")
                .exists();
        assertThat(Files.readString(PAGE))
                .as("docs/configuration.md as the metadata makes it (-Dax.docs.write=true writes it)")
                .isEqualTo(made);
    }

    @Test
    void everyPropertyOfTheMetadataHasADescription() {
        assertThat(ConfigurationReference.properties())
                .as("AX's properties")
                .hasSizeGreaterThan(50)
                .allSatisfy(p -> assertThat(p.description())
                        .as("the description of " + p.name())
                        .isNotBlank()
                        .doesNotContain("{@")
                        .endsWith("."));
    }
}
