package io.ax.autoconfigure.definitions;

import io.ax.core.AxJob;
import java.lang.reflect.Method;
import java.util.Set;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Ahead-of-time processing (Spring AOT, and a native image built from it): the {@code @AxJob} methods of every bean
 * are found and called by reflection at run time, so each one gets the hint that it is invoked (which lets it be
 * found, too).
 */
final class AxJobAotProcessor implements BeanRegistrationAotProcessor {

    @Override
    public BeanRegistrationAotContribution processAheadOfTime(RegisteredBean bean) {
        Class<?> type = bean.getBeanClass();
        Set<Method> jobs = MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<Boolean>)
                        method -> AnnotatedElementUtils.hasAnnotation(method, AxJob.class) ? Boolean.TRUE : null)
                .keySet();
        if (jobs.isEmpty()) {
            return null;
        }
        return (generationContext, code) -> jobs.forEach(method ->
                generationContext.getRuntimeHints().reflection().registerMethod(method, ExecutableMode.INVOKE));
    }
}
