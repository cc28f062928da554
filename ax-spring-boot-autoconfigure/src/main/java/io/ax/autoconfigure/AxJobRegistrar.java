package io.ax.autoconfigure;

import io.ax.core.AxJob;
import io.ax.core.AxTask;
import io.ax.core.engine.AxEngine;
import io.ax.executor.LocalMethodExecutor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Finds {@link AxJob} methods on every bean as it is created, and once all singletons exist turns them into tasks,
 * binds them to the {@link LocalMethodExecutor} and registers them with the {@link AxEngine}. Any invalid definition
 * fails start-up with an {@link InvalidJobDefinitionException}.
 */
final class AxJobRegistrar implements BeanPostProcessor, SmartInitializingSingleton, BeanFactoryAware {

    private static final Logger LOG = LoggerFactory.getLogger(AxJobRegistrar.class);

    private record Found(String beanName, Object bean, Method method, AxJob job) {}

    private final List<Found> found = new ArrayList<>();
    private final Set<Class<?>> withoutJobs = ConcurrentHashMap.newKeySet();
    private ConfigurableBeanFactory beanFactory;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = (ConfigurableBeanFactory) beanFactory;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        Class<?> type = AopUtils.getTargetClass(bean);
        if (withoutJobs.contains(type)) {
            return bean;
        }
        Map<Method, AxJob> jobs = MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<AxJob>)
                method -> AnnotatedElementUtils.findMergedAnnotation(method, AxJob.class));
        if (jobs.isEmpty()) {
            withoutJobs.add(type);
            return bean;
        }
        synchronized (found) {
            jobs.forEach((method, job) ->
                    found.add(new Found(beanName, bean, AopUtils.selectInvocableMethod(method, bean.getClass()), job)));
        }
        return bean;
    }

    @Override
    public void afterSingletonsInstantiated() {
        AxProperties properties = beanFactory.getBean(AxProperties.class);
        AxEngine engine = beanFactory.getBean(AxEngine.class);
        LocalMethodExecutor executor = beanFactory.getBean(LocalMethodExecutor.class);
        AxJobDefinitions definitions = new AxJobDefinitions(this::resolvePlaceholders, properties.getDefaultZone());
        List<Found> jobs;
        synchronized (found) {
            jobs = List.copyOf(found);
            found.clear();
        }
        Map<String, String> names = new HashMap<>();
        List<AxTask> tasks = new ArrayList<>();
        for (Found f : jobs) {
            AxTask task = definitions.define(f.beanName(), f.method(), f.job());
            String other = names.putIfAbsent(task.name(), AxJobDefinitions.describe(f.method()));
            if (other != null) {
                throw new InvalidJobDefinitionException(
                        AxJobDefinitions.describe(f.method()),
                        "name",
                        "the name '" + task.name() + "' is already used by " + other);
            }
            if (!definitions.setsTimeout(f.method(), f.job())) {
                LOG.warn(
                        "@AxJob '{}' on {} sets no timeout; it gets the default {}s. Set timeout = \"...\" to choose",
                        task.name(),
                        AxJobDefinitions.describe(f.method()),
                        AxTask.DEFAULT_TIMEOUT.toSeconds());
            }
            tasks.add(task);
        }
        for (int i = 0; i < tasks.size(); i++) {
            Found f = jobs.get(i);
            executor.bind(tasks.get(i).name(), f.bean(), f.method());
            engine.register(tasks.get(i));
        }
        if (!tasks.isEmpty()) {
            LOG.info(
                    "AX registered {} @AxJob task(s): {}",
                    tasks.size(),
                    tasks.stream().map(AxTask::name).toList());
        }
    }

    private String resolvePlaceholders(String value) {
        String resolved = beanFactory.resolveEmbeddedValue(value);
        return resolved == null ? "" : resolved;
    }
}
