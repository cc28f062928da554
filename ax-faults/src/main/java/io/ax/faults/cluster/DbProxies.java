package io.ax.faults.cluster;

import io.ax.test.net.FaultProxy;
import java.util.ArrayList;
import java.util.List;

/**
 * A node's proxies to the database: one to the run's server, or one to each server of the pair (the node's
 * multi-host URL lists them in the pair's order). A fault on the node's database traffic acts on all of them at once.
 * Thread-safe, as each proxy is.
 */
public final class DbProxies {

    private final List<Integer> upstreams;
    private final List<FaultProxy> proxies;

    private DbProxies(List<Integer> upstreams, List<FaultProxy> proxies) {
        this.upstreams = upstreams;
        this.proxies = proxies;
    }

    /** A proxy to each of {@code ports} on {@code host}, in that order. */
    static DbProxies start(String host, List<Integer> ports) {
        List<FaultProxy> proxies = new ArrayList<>();
        for (int port : ports) {
            proxies.add(FaultProxy.start(host, port));
        }
        return new DbProxies(List.copyOf(ports), List.copyOf(proxies));
    }

    /**
     * The proxies' own ports in the order the node's URL lists them: the pair's order, or with the proxy to {@code
     * first} (a server's port) first when it is one of them.
     */
    List<Integer> ports(Integer first) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < proxies.size(); i++) {
            if (first != null && upstreams.get(i).equals(first)) {
                out.add(0, proxies.get(i).port());
            } else {
                out.add(proxies.get(i).port());
            }
        }
        return out;
    }

    public void blackhole() {
        proxies.forEach(FaultProxy::blackhole);
    }

    public void refuse() {
        proxies.forEach(FaultProxy::refuse);
    }

    public void cutAll() {
        proxies.forEach(FaultProxy::cutAll);
    }

    public void pass() {
        proxies.forEach(FaultProxy::pass);
    }

    public void close() {
        proxies.forEach(FaultProxy::close);
    }
}
