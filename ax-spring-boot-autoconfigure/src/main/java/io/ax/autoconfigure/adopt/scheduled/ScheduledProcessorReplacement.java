package io.ax.autoconfigure.adopt.scheduled;

import io.ax.autoconfigure.AxProperties;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.config.TaskManagementConfigUtils;

/**
 * Where {@code @EnableScheduling} declared Spring's {@code @Scheduled} processor, puts in its place one that leaves
 * the adopted declarations to AX. Without {@code @EnableScheduling} Spring runs no {@code @Scheduled} method, and
 * AX adopts none either.
 */
final class ScheduledProcessorReplacement implements BeanDefinitionRegistryPostProcessor, EnvironmentAware {

    static final String PROCESSOR = TaskManagementConfigUtils.SCHEDULED_ANNOTATION_PROCESSOR_BEAN_NAME;

    private AxProperties.ScheduledAdoption mode = AxProperties.ScheduledAdoption.OFF;

    @Override
    public void setEnvironment(Environment environment) {
        Binder binder = Binder.get(environment);
        boolean enabled = binder.bind("ax.enabled", Boolean.class).orElse(true);
        mode = enabled
                ? binder.bind("ax.adopt.scheduled", AxProperties.ScheduledAdoption.class)
                        .orElse(AxProperties.ScheduledAdoption.OFF)
                : AxProperties.ScheduledAdoption.OFF;
    }

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
        if (mode == AxProperties.ScheduledAdoption.OFF || !registry.containsBeanDefinition(PROCESSOR)) {
            return;
        }
        AdoptionRule rule = new AdoptionRule(mode);
        RootBeanDefinition adopting = new RootBeanDefinition(
                AdoptingScheduledAnnotationBeanPostProcessor.class,
                () -> new AdoptingScheduledAnnotationBeanPostProcessor(rule));
        adopting.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
        registry.removeBeanDefinition(PROCESSOR);
        registry.registerBeanDefinition(PROCESSOR, adopting);
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {}
}
