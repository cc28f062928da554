package io.ax.autoconfigure.definitions;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.core.AxContext;
import io.ax.core.AxJob;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Every kind of bad @AxJob fails start-up with one message naming the method, the attribute and the reason. */
class InvalidJobDefinitionTest {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class));

    static Stream<Arguments> badJobs() {
        return Stream.of(
                Arguments.of(BadCron.class, "BadCronJob.run()", "cron", "0 0 25 * * ?"),
                Arguments.of(TwoTriggers.class, "TwoTriggersJob.run()", "fixedRate", "only one trigger"),
                Arguments.of(WrongParameters.class, "WrongParametersJob.run()", "parameters", "one AxContext"),
                Arguments.of(ZeroRate.class, "ZeroRateJob.run()", "fixedRate", "must be positive"),
                Arguments.of(NegativeTimeout.class, "NegativeTimeoutJob.run()", "timeout", "must be positive"),
                Arguments.of(
                        GarbageDuration.class, "GarbageDurationJob.run()", "fixedDelay", "'soon' is not a duration"),
                Arguments.of(UnknownZone.class, "UnknownZoneJob.run()", "zone", "Mars/Olympus"),
                Arguments.of(BadRetry.class, "BadRetryJob.run()", "retry.times", "'many' is not a number"),
                Arguments.of(MissingPlaceholder.class, "MissingPlaceholderJob.run()", "cron", "nowhere.to.be.found"),
                Arguments.of(DuplicateNames.class, "DuplicateNamesJob.", "name", "'twin' is already used by"),
                Arguments.of(ZoneWithoutCron.class, "ZoneWithoutCronJob.run()", "zone", "only to a cron"),
                Arguments.of(BadParams.class, "BadParamsJob.run()", "params", "'region' is not key=value"),
                Arguments.of(
                        FiveFieldCron.class,
                        "FiveFieldCronJob.run()",
                        "cron",
                        "AX cron starts with seconds: '0 30 2 * * ?'"),
                Arguments.of(NeverFires.class, "NeverFiresJob.run()", "cron", "it can never fire"),
                Arguments.of(
                        BadLimitRate.class,
                        "BadLimitRateJob.run()",
                        "rate",
                        "'100 per minute' is not <count>/<window>"),
                Arguments.of(
                        UnknownMutexVariable.class,
                        "UnknownMutexVariableJob.run()",
                        "mutex",
                        "names ${customerId}, which is neither ${key}, ${keyPrefix} nor a parameter"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badJobs")
    void failsStartUpNamingMethodAttributeAndReason(Class<?> config, String method, String attribute, String reason) {
        runner.withUserConfiguration(config).run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            while (!(failure instanceof InvalidJobDefinitionException) && failure.getCause() != null) {
                failure = failure.getCause();
            }
            assertThat(failure)
                    .isInstanceOf(InvalidJobDefinitionException.class)
                    .hasMessageContaining(method)
                    .hasMessageContaining("attribute '" + attribute + "'")
                    .hasMessageContaining(reason);
            assertThat(((InvalidJobDefinitionException) failure).attribute()).isEqualTo(attribute);
        });
    }

    static class BadCronJob {
        @AxJob(cron = "0 0 25 * * ?", timeout = "1s")
        void run() {}
    }

    static class TwoTriggersJob {
        @AxJob(cron = "0 * * * * ?", fixedRate = "5s", timeout = "1s")
        void run() {}
    }

    static class WrongParametersJob {
        @AxJob(fixedRate = "5s", timeout = "1s")
        void run(String nope) {}
    }

    static class ZeroRateJob {
        @AxJob(fixedRate = "0s", timeout = "1s")
        void run() {}
    }

    static class NegativeTimeoutJob {
        @AxJob(fixedRate = "5s", timeout = "-1s")
        void run() {}
    }

    static class GarbageDurationJob {
        @AxJob(fixedDelay = "soon", timeout = "1s")
        void run() {}
    }

    static class UnknownZoneJob {
        @AxJob(cron = "0 * * * * ?", zone = "Mars/Olympus", timeout = "1s")
        void run() {}
    }

    static class BadRetryJob {
        @AxJob(fixedRate = "5s", timeout = "1s", retry = @AxJob.Retry(times = "many"))
        void run() {}
    }

    static class MissingPlaceholderJob {
        @AxJob(cron = "${nowhere.to.be.found}", timeout = "1s")
        void run() {}
    }

    static class DuplicateNamesJob {
        @AxJob(name = "twin", timeout = "1s")
        void one() {}

        @AxJob(name = "twin", timeout = "1s")
        void two(AxContext context) {}
    }

    static class ZoneWithoutCronJob {
        @AxJob(fixedRate = "5s", zone = "UTC", timeout = "1s")
        void run() {}
    }

    @Configuration(proxyBeanMethods = false)
    static class BadCron {
        @Bean
        BadCronJob job() {
            return new BadCronJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoTriggers {
        @Bean
        TwoTriggersJob job() {
            return new TwoTriggersJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class WrongParameters {
        @Bean
        WrongParametersJob job() {
            return new WrongParametersJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ZeroRate {
        @Bean
        ZeroRateJob job() {
            return new ZeroRateJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NegativeTimeout {
        @Bean
        NegativeTimeoutJob job() {
            return new NegativeTimeoutJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class GarbageDuration {
        @Bean
        GarbageDurationJob job() {
            return new GarbageDurationJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UnknownZone {
        @Bean
        UnknownZoneJob job() {
            return new UnknownZoneJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadRetry {
        @Bean
        BadRetryJob job() {
            return new BadRetryJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MissingPlaceholder {
        @Bean
        MissingPlaceholderJob job() {
            return new MissingPlaceholderJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class DuplicateNames {
        @Bean
        DuplicateNamesJob job() {
            return new DuplicateNamesJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ZoneWithoutCron {
        @Bean
        ZoneWithoutCronJob job() {
            return new ZoneWithoutCronJob();
        }
    }

    static class BadParamsJob {
        @AxJob(
                timeout = "1s",
                params = {"size=1", "region"})
        void run() {}
    }

    static class FiveFieldCronJob {
        @AxJob(cron = "30 2 * * *", timeout = "1s")
        void run() {}
    }

    static class NeverFiresJob {
        @AxJob(cron = "0 0 0 31 4 ?", timeout = "1s")
        void run() {}
    }

    @Configuration(proxyBeanMethods = false)
    static class BadParams {
        @Bean
        BadParamsJob job() {
            return new BadParamsJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class FiveFieldCron {
        @Bean
        FiveFieldCronJob job() {
            return new FiveFieldCronJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NeverFires {
        @Bean
        NeverFiresJob job() {
            return new NeverFiresJob();
        }
    }

    static class BadLimitRateJob {
        @AxJob(name = "bad-rate", rate = "100 per minute")
        void run() {}
    }

    @Configuration(proxyBeanMethods = false)
    static class BadLimitRate {
        @Bean
        BadLimitRateJob job() {
            return new BadLimitRateJob();
        }
    }

    static class UnknownMutexVariableJob {
        @AxJob(name = "bad-mutex", mutex = "customer-${customerId}")
        void run() {}
    }

    @Configuration(proxyBeanMethods = false)
    static class UnknownMutexVariable {
        @Bean
        UnknownMutexVariableJob job() {
            return new UnknownMutexVariableJob();
        }
    }
}
