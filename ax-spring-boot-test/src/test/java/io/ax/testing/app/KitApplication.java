package io.ax.testing.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application the test support's own tests drive: {@link KitJobs}. */
@SpringBootApplication
public class KitApplication {}
