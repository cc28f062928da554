package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.AxException;
import org.junit.jupiter.api.Test;

class VendorTest {

    @Test
    void picksTheDialectFromTheDriversProductName() {
        assertThat(Vendor.of("PostgreSQL").dialect()).isInstanceOf(PostgresDialect.class);
        assertThat(Vendor.of("MySQL").dialect()).isInstanceOf(MySqlDialect.class);
        assertThat(Vendor.of("MariaDB").dialect()).isInstanceOf(MySqlDialect.class);
        assertThat(Vendor.of("H2").dialect()).isInstanceOf(H2Dialect.class);
    }

    @Test
    void anotherDatabaseIsRefusedByName() {
        assertThatThrownBy(() -> Vendor.of("Oracle"))
                .isInstanceOf(AxException.class)
                .hasMessageContaining("'Oracle'");
    }
}
