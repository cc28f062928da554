package io.ax.jdbc;

import java.util.regex.Pattern;

/** JDBC URLs fit to be shown: the user info and the credential parameters a URL may carry are left out. */
final class JdbcUrls {

    /** {@code //user:secret@host}: the user info of a URL's authority. */
    private static final Pattern USER_INFO = Pattern.compile("//[^/@?;]*@");
    /** {@code password=...} and the like, in a query ({@code ?a=b&c=d}) or H2/SQL Server style ({@code ;a=b}). */
    private static final Pattern CREDENTIAL =
            Pattern.compile("(?i)([?&;])(password|pwd|user|username|sslpassword|sslkey)=[^&;]*");

    private JdbcUrls() {}

    static String withoutCredentials(String url) {
        if (url == null) {
            return "an unknown URL";
        }
        String shown = USER_INFO.matcher(url).replaceFirst("//");
        shown = CREDENTIAL.matcher(shown).replaceAll("$1$2=***");
        return shown;
    }
}
