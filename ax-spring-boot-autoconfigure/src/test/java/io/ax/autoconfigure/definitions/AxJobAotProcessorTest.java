package io.ax.autoconfigure.definitions;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.javapoet.ClassName;

/** Spring AOT: the @AxJob methods of a bean get the reflection hints AX needs to call them in a native image. */
class AxJobAotProcessorTest {

    static class Jobs {

        @AxJob(name = "report", fixedRate = "1m")
        void report() {}

        @AxJob(name = "cleanUp", cron = "0 0 3 * * ?")
        public void cleanUp(AxContext context) {}

        void notAJob() {}
    }

    static class NoJobs {
        void work() {}
    }

    private final DefaultListableBeanFactory beans = new DefaultListableBeanFactory();

    @Test
    void everyAxJobMethodOfABeanIsRegisteredForInvocation() throws Exception {
        beans.registerBeanDefinition("jobs", new RootBeanDefinition(Jobs.class));
        BeanRegistrationAotContribution contribution =
                new AxJobAotProcessor().processAheadOfTime(RegisteredBean.of(beans, "jobs"));
        assertThat(contribution).isNotNull();
        DefaultGenerationContext context = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get("io.ax.test", "Aot")), new InMemoryGeneratedFiles());
        contribution.applyTo(context, null);

        Method report = Jobs.class.getDeclaredMethod("report");
        Method cleanUp = Jobs.class.getDeclaredMethod("cleanUp", AxContext.class);
        Method notAJob = Jobs.class.getDeclaredMethod("notAJob");
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(report))
                .accepts(context.getRuntimeHints());
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(cleanUp))
                .accepts(context.getRuntimeHints());
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(notAJob))
                .rejects(context.getRuntimeHints());
    }

    @Test
    void aBeanWithoutJobsContributesNothing() {
        beans.registerBeanDefinition("plain", new RootBeanDefinition(NoJobs.class));
        assertThat(new AxJobAotProcessor().processAheadOfTime(RegisteredBean.of(beans, "plain")))
                .isNull();
    }
}
