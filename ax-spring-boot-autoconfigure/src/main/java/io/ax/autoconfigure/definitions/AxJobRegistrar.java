package io.ax.autoconfigure.definitions;

import io.ax.autoconfigure.AxProperties;
import io.ax.autoconfigure.adopt.AdoptedTask;
import io.ax.autoconfigure.adopt.AdoptedTaskSource;
import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxTask;
import io.ax.core.InvalidTaskException;
import io.ax.core.RetryPolicy;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.WorkflowGraph;
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
import org.springframework.util.ReflectionUtils;

/**
 * Finds {@link AxJob} methods on every bean as it is created, and once all singletons exist turns them and the
 * {@code ax.tasks} entries into tasks, checks that an executor claims each and finds it runnable, binds LOCAL ones
 * to the {@link LocalMethodExecutor} and registers them all with the {@link AxEngine}. Any invalid definition fails
 * start-up with an {@link InvalidJobDefinitionException}.
 */
public final class AxJobRegistrar implements BeanPostProcessor, SmartInitializingSingleton, BeanFactoryAware {

    private static final Logger LOG = LoggerFactory.getLogger(AxJobRegistrar.class);

    private record Found(String beanName, Object bean, Method method, AxJob job) {}

    private final List<Found> found = new ArrayList<>();
    private final Set<Class<?>> withoutJobs = ConcurrentHashMap.newKeySet();
    private ConfigurableBeanFactory beanFactory;

    /** Declared by the auto-configuration as a static bean, so that it sees every bean that is created. */
    public AxJobRegistrar() {}

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
        ExecutorRouter router = beanFactory.getBean(ExecutorRouter.class);
        TaskDefinitionReader reader =
                new TaskDefinitionReader(properties.getDefaultZone(), beanFactory.getBean(RetryPolicy.class));
        AxJobDefinitions definitions = new AxJobDefinitions(this::resolvePlaceholders, reader);
        List<Found> jobs;
        synchronized (found) {
            jobs = List.copyOf(found);
            found.clear();
        }
        Map<String, String> names = new HashMap<>();
        Map<String, TaskSpec.Source> sources = new HashMap<>();
        List<Defined> defined = new ArrayList<>();
        for (Found f : jobs) {
            AxTask task = definitions.define(f.beanName(), f.method(), f.job());
            TaskSpec.Source source = AxJobDefinitions.source(f.method());
            String other = names.putIfAbsent(task.name(), "@AxJob on " + AxJobDefinitions.describe(f.method()));
            if (other != null) {
                throw source.invalid("name", "the name '" + task.name() + "' is already used by " + other);
            }
            check(router, task, source);
            sources.put(task.name(), source);
            if (!definitions.setsTimeout(f.method(), f.job())) {
                LOG.warn(
                        "@AxJob '{}' on {} sets no timeout; it gets the default {}s. Set timeout = \"...\" to choose",
                        task.name(),
                        AxJobDefinitions.describe(f.method()),
                        AxTask.DEFAULT_TIMEOUT.toSeconds());
            }
            defined.add(new Defined(task, f.bean(), f.method()));
        }
        ConfiguredTasks configured = new ConfiguredTasks(reader);
        Map<String, AxTaskProperties.Task> entries =
                beanFactory.getBean(AxTaskProperties.class).getTasks();
        entries.forEach((name, entry) -> {
            TaskSpec.Source source = ConfiguredTasks.source(name);
            AxTask task = configured.define(name, entry);
            String other = names.putIfAbsent(task.name(), "ax.tasks." + name);
            if (other != null) {
                throw source.invalid("name", "the name '" + task.name() + "' is already used by " + other);
            }
            check(router, task, source);
            sources.put(task.name(), source);
            if (entry.getTimeout() == null || entry.getTimeout().isBlank()) {
                LOG.warn(
                        "ax.tasks.{} sets no timeout; it gets the default {}s. Set ax.tasks.{}.timeout to choose",
                        name,
                        AxTask.DEFAULT_TIMEOUT.toSeconds(),
                        name);
            }
            defined.add(AxTask.LOCAL.equals(task.type()) ? local(task, source) : new Defined(task, null, null));
        });
        AdoptedTasks adopted = beanFactory.getBean(AdoptedTasks.class);
        beanFactory.getBeanProvider(AdoptedTaskSource.class).orderedStream().forEach(adoption -> {
            for (AdoptedTask a : adoption.adoptedTasks()) {
                AxTask task = a.task();
                TaskSpec.Source source = adoptedSource(a.origin());
                String other = names.putIfAbsent(task.name(), a.origin());
                if (other != null) {
                    throw source.invalid("name", "the name '" + task.name() + "' is already used by " + other);
                }
                check(router, task, source);
                sources.put(task.name(), source);
                adopted.add(task.name(), a.origin());
                defined.add(new Defined(task, a.bean(), a.method()));
            }
        });
        checkWorkflows(engine, defined, sources);
        for (Defined d : defined) {
            if (d.bean() != null) {
                executor.bind(d.task().name(), d.bean(), d.method());
            }
            engine.register(d.task());
        }
        if (!defined.isEmpty()) {
            LOG.info(
                    "AX registered {} task(s): {}",
                    defined.size(),
                    defined.stream().map(d -> d.task().name()).toList());
        }
    }

    /**
     * The dependencies make valid workflows (no cycle, known upstream tasks, one root each): else start-up fails,
     * naming the task and the cycle, before anything is registered.
     */
    private static void checkWorkflows(AxEngine engine, List<Defined> defined, Map<String, TaskSpec.Source> sources) {
        List<AxTask> all = new ArrayList<>(engine.tasks());
        defined.forEach(d -> all.add(d.task()));
        try {
            WorkflowGraph.of(all);
        } catch (InvalidTaskException e) {
            TaskSpec.Source source = sources.get(e.taskName());
            if (source == null) {
                throw e;
            }
            throw source.invalid(e.attribute(), e.reason());
        }
    }

    /** Where an adopted task comes from: its attributes are named as the other scheduler names them. */
    private static TaskSpec.Source adoptedSource(String origin) {
        return new TaskSpec.Source() {
            @Override
            public String attribute(String annotationName) {
                return annotationName;
            }

            @Override
            public InvalidJobDefinitionException invalid(String annotationName, String reason) {
                return InvalidJobDefinitionException.ofAdopted(origin, annotationName, reason);
            }
        };
    }

    /** A task ready to register, with the bean method it runs when it is LOCAL. */
    private record Defined(AxTask task, Object bean, Method method) {}

    /** An executor claims the task's type and finds it can run: else start-up fails, naming the attribute. */
    private static void check(ExecutorRouter router, AxTask task, TaskSpec.Source source) {
        try {
            router.check(task);
        } catch (InvalidTaskException e) {
            throw source.invalid(e.attribute(), e.reason());
        }
    }

    /** The bean and method a configured LOCAL task names as {@code beanName.methodName}. */
    private Defined local(AxTask task, TaskSpec.Source source) {
        String target = task.target();
        int dot = target.lastIndexOf('.');
        if (dot <= 0 || dot == target.length() - 1) {
            throw source.invalid("target", "'" + target + "' is not beanName.methodName");
        }
        String beanName = target.substring(0, dot);
        String methodName = target.substring(dot + 1);
        if (!beanFactory.containsBean(beanName)) {
            throw source.invalid("target", "there is no bean named '" + beanName + "'");
        }
        Object bean = beanFactory.getBean(beanName);
        Class<?> type = AopUtils.getTargetClass(bean);
        Method method = null;
        for (Class<?>[] parameters : List.<Class<?>[]>of(new Class<?>[0], new Class<?>[] {AxContext.class})) {
            Method m = ReflectionUtils.findMethod(type, methodName, parameters);
            if (m != null) {
                method = m;
                break;
            }
        }
        if (method == null) {
            throw source.invalid(
                    "target",
                    "bean '" + beanName + "' (" + type.getName() + ") has no method " + methodName + "() or "
                            + methodName + "(AxContext)");
        }
        return new Defined(task, bean, AopUtils.selectInvocableMethod(method, bean.getClass()));
    }

    private String resolvePlaceholders(String value) {
        String resolved = beanFactory.resolveEmbeddedValue(value);
        return resolved == null ? "" : resolved;
    }
}
