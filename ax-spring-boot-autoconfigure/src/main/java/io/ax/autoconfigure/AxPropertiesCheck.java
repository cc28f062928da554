package io.ax.autoconfigure;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * At start-up, once every bean is made and before the engine starts: the keys under {@code ax.} that no AX setting
 * reads, reported in one WARN, or a failed start-up under {@code ax.strict-properties=true}.
 */
final class AxPropertiesCheck implements SmartInitializingSingleton {

    private static final Logger LOG = LoggerFactory.getLogger(AxPropertiesCheck.class);

    private final ConfigurableEnvironment environment;
    private final boolean strict;

    AxPropertiesCheck(ConfigurableEnvironment environment, boolean strict) {
        this.environment = environment;
        this.strict = strict;
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<UnknownAxProperties.Unknown> unknown;
        try {
            unknown = UnknownAxProperties.in(environment);
        } catch (RuntimeException | LinkageError e) {
            // a check of the settings must never be what stops an application that would start
            LOG.debug("AX could not check the ax.* properties: {}", e.toString());
            return;
        }
        if (unknown.isEmpty()) {
            return;
        }
        if (strict) {
            throw new UnknownAxPropertiesException(unknown);
        }
        LOG.warn(
                "{}\nCorrect or remove them; ax.strict-properties=true makes this a start-up failure.",
                UnknownAxPropertiesException.describe(unknown));
    }
}
