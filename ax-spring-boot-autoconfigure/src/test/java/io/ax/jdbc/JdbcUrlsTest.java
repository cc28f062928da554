package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JdbcUrlsTest {

    @Test
    void keepsAUrlWithoutCredentialsAsItIs() {
        assertThat(JdbcUrls.withoutCredentials("jdbc:postgresql://db.example:5432/orders?ssl=true"))
                .isEqualTo("jdbc:postgresql://db.example:5432/orders?ssl=true");
        assertThat(JdbcUrls.withoutCredentials("jdbc:h2:mem:test")).isEqualTo("jdbc:h2:mem:test");
    }

    @Test
    void leavesOutUserInfoAndPasswordParameters() {
        assertThat(JdbcUrls.withoutCredentials("jdbc:mariadb://root:s3cret@db:3306/test"))
                .isEqualTo("jdbc:mariadb://db:3306/test");
        assertThat(JdbcUrls.withoutCredentials("jdbc:postgresql://db/test?user=ax&password=s3cret&ssl=true"))
                .isEqualTo("jdbc:postgresql://db/test?user=***&password=***&ssl=true");
        assertThat(JdbcUrls.withoutCredentials("jdbc:h2:file:./data;USER=sa;PASSWORD=s3cret"))
                .isEqualTo("jdbc:h2:file:./data;USER=***;PASSWORD=***");
    }
}
