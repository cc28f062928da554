package io.ax.autoconfigure.dashboard;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

/**
 * What Actuator says of one web endpoint: where it is mapped (null while it is not exposed) and whether its
 * configured access lets write operations through. Read when asked: both are cheap lookups.
 */
final class EndpointFacts {

    private final ObjectProvider<PathMappedEndpoints> endpoints;
    private final ObjectProvider<EndpointAccessResolver> access;
    private final EndpointId id;
    private final Access defaultAccess;

    EndpointFacts(
            ObjectProvider<PathMappedEndpoints> endpoints,
            ObjectProvider<EndpointAccessResolver> access,
            Class<?> endpointType) {
        WebEndpoint annotation = endpointType.getAnnotation(WebEndpoint.class);
        if (annotation == null) {
            throw new IllegalArgumentException(endpointType.getName() + " is not a @WebEndpoint");
        }
        this.endpoints = endpoints;
        this.access = access;
        this.id = EndpointId.of(annotation.id());
        this.defaultAccess = annotation.defaultAccess();
    }

    /** The endpoint's path below the servlet context, e.g. {@code /actuator/ax}; null when it is not exposed. */
    String path() {
        PathMappedEndpoints mapped = endpoints.getIfAvailable();
        return mapped == null ? null : mapped.getPath(id);
    }

    /**
     * Whether write operations reach the endpoint: its access ({@code management.endpoint.<id>.access}, capped by
     * {@code management.endpoints.access.max-permitted}) is unrestricted.
     */
    boolean writable() {
        EndpointAccessResolver resolver = access.getIfAvailable();
        Access resolved = resolver == null ? defaultAccess : resolver.accessFor(id, defaultAccess);
        return resolved == Access.UNRESTRICTED;
    }
}
