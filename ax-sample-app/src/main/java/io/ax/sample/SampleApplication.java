package io.ax.sample;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A runnable application that shows every AX feature on one node. */
@SpringBootApplication
public class SampleApplication {

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(SampleApplication.class);
        // its scripts and its H2 file resolve against its own folder, wherever it was started from
        app.setDefaultProperties(Map.of("sample.home", SampleHome.find().toString()));
        app.run(args);
    }
}
