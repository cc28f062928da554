package io.ax.autoconfigure.adopt.scheduled;

import io.ax.autoconfigure.AxProperties;
import io.ax.autoconfigure.adopt.AdoptedTask;
import io.ax.autoconfigure.adopt.AdoptedTaskSource;
import io.ax.autoconfigure.definitions.InvalidJobDefinitionException;
import io.ax.core.AxTask;
import io.ax.core.MisfirePolicy;
import io.ax.core.trigger.SpacedTrigger;
import io.ax.core.trigger.Trigger;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.Schedules;
import org.springframework.util.ClassUtils;

/**
 * Finds the {@code @Scheduled} declarations that AX adopts, as Spring's processor finds them, and makes each a
 * task: named after its {@code @SchedulerLock} where it has one, else {@code Class.method} ({@code :1}, {@code :2}
 * for a method's repeated declarations; the full class name where two classes share a simple name, the bean's name
 * where two beans share a class), firing as
 * Spring would fire it, never overlapping itself, interrupted after its {@code lockAtMostFor} or
 * {@code ax.adopt.timeout}, without retries (Spring has none), one catch-up fire for missed ones.
 */
final class ScheduledMethodAdoption implements BeanPostProcessor, BeanFactoryAware, AdoptedTaskSource {

    private record Declared(
            String beanName, Object bean, Class<?> type, Method method, Scheduled scheduled, int index, int count) {

        String origin() {
            return "@Scheduled on " + type.getName() + "." + method.getName() + "()";
        }
    }

    private record Candidate(
            Declared declared, String name, boolean lockNamed, Trigger trigger, Duration timeout, AdoptedMethod run) {

        AxTask task(String taskName) {
            return AxTask.builder(taskName)
                    .type(AxTask.LOCAL)
                    .target(declared.beanName() + "." + declared.method().getName())
                    .trigger(trigger)
                    .timeout(timeout)
                    .concurrent(false)
                    .misfire(MisfirePolicy.FIRE_ONCE)
                    .build();
        }
    }

    private final List<Declared> declared = new ArrayList<>();
    private final Set<Class<?>> withoutScheduled = ConcurrentHashMap.newKeySet();
    private ConfigurableListableBeanFactory beanFactory;
    private volatile Optional<AdoptionRule> rule;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Optional<AdoptionRule> adoption = rule();
        if (adoption.isEmpty()) {
            return bean;
        }
        Class<?> type = AopUtils.getTargetClass(bean);
        if (withoutScheduled.contains(type)) {
            return bean;
        }
        Map<Method, Set<Scheduled>> methods =
                MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<Set<Scheduled>>) method -> {
                    Set<Scheduled> found = AnnotatedElementUtils.getMergedRepeatableAnnotations(
                            method, Scheduled.class, Schedules.class);
                    return found.isEmpty() ? null : found;
                });
        if (methods.isEmpty()) {
            withoutScheduled.add(type);
            return bean;
        }
        synchronized (declared) {
            methods.forEach((method, all) -> {
                List<Scheduled> adopted = all.stream()
                        .filter(s -> adoption.get().adopts(method, s))
                        .toList();
                for (int i = 0; i < adopted.size(); i++) {
                    declared.add(new Declared(
                            beanName, bean, ClassUtils.getUserClass(type), method, adopted.get(i), i, adopted.size()));
                }
            });
        }
        return bean;
    }

    /** The rule of Spring's processor when it is the adopting one; empty when scheduling is not enabled. */
    private Optional<AdoptionRule> rule() {
        Optional<AdoptionRule> known = rule;
        if (known == null) {
            known = beanFactory.containsBean(ScheduledProcessorReplacement.PROCESSOR)
                            && beanFactory.getBean(ScheduledProcessorReplacement.PROCESSOR)
                                    instanceof AdoptingScheduledAnnotationBeanPostProcessor adopting
                    ? Optional.of(adopting.rule())
                    : Optional.empty();
            rule = known;
        }
        return known;
    }

    @Override
    public List<AdoptedTask> adoptedTasks() {
        List<Declared> all;
        synchronized (declared) {
            all = List.copyOf(declared);
        }
        if (all.isEmpty()) {
            return List.of();
        }
        Duration defaultTimeout =
                beanFactory.getBean(AxProperties.class).getAdopt().getTimeout();
        SchedulerLocks locks =
                beanFactory.getBeanProvider(SchedulerLocks.class).getIfAvailable(() -> SchedulerLocks.NONE);
        ScheduledTriggers triggers = new ScheduledTriggers(this::resolve);
        List<Candidate> candidates = new ArrayList<>();
        for (Declared d : all) {
            String origin = d.origin();
            checkCallable(d.method(), origin);
            Optional<Trigger> fires = triggers.trigger(d.scheduled(), origin);
            if (fires.isEmpty()) {
                continue; // cron = "-": Spring schedules nothing either
            }
            Optional<SchedulerLocks.Lock> lock = locks.lockOf(d.method(), origin);
            Trigger trigger = lock.filter(l -> positive(l.atLeastFor()))
                    .<Trigger>map(l -> new SpacedTrigger(fires.get(), l.atLeastFor()))
                    .orElse(fires.get());
            Duration timeout = lock.map(SchedulerLocks.Lock::atMostFor)
                    .filter(ScheduledMethodAdoption::positive)
                    .orElse(defaultTimeout);
            String base = lock.map(SchedulerLocks.Lock::name)
                    .orElse(d.type().getSimpleName() + "." + d.method().getName());
            Method invocable =
                    AopUtils.selectInvocableMethod(d.method(), d.bean().getClass());
            candidates.add(new Candidate(
                    d,
                    numbered(base, d),
                    lock.isPresent(),
                    trigger,
                    timeout,
                    new AdoptedMethod(d.bean(), invocable, locks, lock)));
        }
        Map<String, String> names = names(candidates);
        List<AdoptedTask> tasks = new ArrayList<>();
        for (Candidate c : candidates) {
            Declared d = c.declared();
            AxTask task;
            try {
                task = c.task(names.get(d.origin() + "#" + d.beanName() + "#" + d.index()));
            } catch (IllegalArgumentException e) {
                throw InvalidJobDefinitionException.ofAdopted(
                        d.origin(), c.lockNamed() ? "@SchedulerLock.name" : "name", e.getMessage());
            }
            tasks.add(new AdoptedTask(task, c.run(), AdoptedMethod.RUN, d.origin()));
        }
        return tasks;
    }

    /**
     * The task name of each declaration (by origin, bean and index). Where two would share one: the beans' names for
     * one method on two beans, the full class names for two classes of one simple name; one lock name on two
     * declarations fails, as ShedLock makes them wait for each other but AX runs each as a task of its own.
     */
    private static Map<String, String> names(List<Candidate> candidates) {
        Map<String, List<Candidate>> byName = new LinkedHashMap<>();
        candidates.forEach(
                c -> byName.computeIfAbsent(c.name(), n -> new ArrayList<>()).add(c));
        Map<String, String> names = new HashMap<>();
        byName.forEach((name, sharing) -> {
            boolean oneMethod =
                    sharing.stream().map(c -> c.declared().method()).distinct().count() == 1;
            for (Candidate c : sharing) {
                Declared d = c.declared();
                if (sharing.size() > 1 && c.lockNamed()) {
                    Candidate other = sharing.get(sharing.get(0) == c ? 1 : 0);
                    throw InvalidJobDefinitionException.ofAdopted(
                            d.origin(),
                            "@SchedulerLock.name",
                            "the lock name '" + name + "' is also on "
                                    + other.declared().origin() + " (bean '"
                                    + other.declared().beanName() + "'); AX runs each adopted declaration as a task"
                                    + " named after its lock, so each needs a name of its own");
                }
                String unique = sharing.size() == 1
                        ? name
                        : numbered(
                                (oneMethod ? d.beanName() : d.type().getName()) + "."
                                        + d.method().getName(),
                                d);
                names.put(d.origin() + "#" + d.beanName() + "#" + d.index(), unique);
            }
        });
        return names;
    }

    private static boolean positive(Duration duration) {
        return !duration.isZero() && !duration.isNegative();
    }

    private static String numbered(String base, Declared d) {
        return d.count() > 1 ? base + ":" + (d.index() + 1) : base;
    }

    /** As Spring: no parameters; and AX runs only methods that do their work when called. */
    private static void checkCallable(Method method, String origin) {
        if (method.getParameterCount() != 0) {
            throw InvalidJobDefinitionException.ofAdopted(
                    origin, "method", "Only no-arg methods may be annotated with @Scheduled");
        }
        boolean reactive = ReactiveAdapterRegistry.getSharedInstance().getAdapter(method.getReturnType()) != null
                || KotlinDetector.isSuspendingFunction(method);
        if (reactive) {
            throw InvalidJobDefinitionException.ofAdopted(
                    origin,
                    "method",
                    "it returns " + method.getReturnType().getSimpleName()
                            + ": Spring subscribes to it, AX runs only methods that do their work when called."
                            + " Use ax.adopt.scheduled=locked and leave it without @SchedulerLock to keep it on"
                            + " Spring's scheduler");
        }
    }

    private String resolve(String value) {
        String resolved = beanFactory.resolveEmbeddedValue(value);
        return resolved == null ? "" : resolved;
    }
}
