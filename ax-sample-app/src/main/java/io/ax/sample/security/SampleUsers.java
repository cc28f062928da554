package io.ax.sample.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The sample's two users and their passwords. The defaults are for trying the sample on one's own machine only; set
 * {@code sample.users.viewer-password} and {@code sample.users.operator-password} (or {@code SAMPLE_USERS_*} in the
 * environment) anywhere else.
 *
 * @param viewerPassword the password of {@code viewer}, who reads the {@code ax} endpoint and the dashboard
 * @param operatorPassword the password of {@code operator}, who may also trigger, pause, resume, cancel and replay
 */
@ConfigurationProperties("sample.users")
public record SampleUsers(String viewerPassword, String operatorPassword) {

    public SampleUsers {
        viewerPassword = viewerPassword == null ? "viewer" : viewerPassword;
        operatorPassword = operatorPassword == null ? "operator" : operatorPassword;
    }
}
