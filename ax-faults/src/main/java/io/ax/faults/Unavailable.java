package io.ax.faults;

/** A run cannot be made on this machine as it is (a service down, a program missing): said in one line, no trace. */
final class Unavailable extends RuntimeException {

    Unavailable(String message) {
        super(message);
    }
}
