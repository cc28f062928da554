package io.ax.bench.cluster;

import java.util.List;

/** Min, median and max of a part's timings (seconds, or any unit), NaN when there are none. */
final class Timings {

    private Timings() {}

    static double min(List<Double> values) {
        return values.stream().mapToDouble(d -> d).min().orElse(Double.NaN);
    }

    static double max(List<Double> values) {
        return values.stream().mapToDouble(d -> d).max().orElse(Double.NaN);
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int k = sorted.size();
        return k == 0 ? Double.NaN : k % 2 == 1 ? sorted.get(k / 2) : (sorted.get(k / 2 - 1) + sorted.get(k / 2)) / 2;
    }
}
