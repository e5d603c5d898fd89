package io.erasure.store.cassandra.bulk;

import io.erasure.store.spi.StoreException;
import java.net.InetSocketAddress;
import java.net.MalformedURLException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Loads a folder of SSTables into a table of the node that shares this machine's filesystem, over JMX:
 * {@code org.apache.cassandra.db:type=Tables,keyspace=K,table=T} operation {@code importNewSSTables}, what
 * {@code nodetool import} calls. The files are moved into the table's data folder, so the folder must be
 * on the node's own disk.
 *
 * <p>For a node on another machine use {@code sstableloader -d <host> <folder named keyspace/table>} from
 * the Cassandra distribution instead: it streams the SSTables to every replica that owns their tokens.
 * The node must run with {@code storage_compatibility_mode: NONE}: in {@code CASSANDRA_4} mode it silently
 * ignores the {@code oa} SSTables the 5.0 writer produces ("No new SSTables were found").
 */
final class SSTableImport {

    private final JMXServiceURL url;
    private final Map<String, ?> environment;

    SSTableImport(InetSocketAddress jmx, Map<String, ?> environment) {
        try {
            this.url = new JMXServiceURL(
                    "service:jmx:rmi:///jndi/rmi://" + jmx.getHostString() + ":" + jmx.getPort() + "/jmxrmi");
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("bad JMX address " + jmx, e);
        }
        this.environment = environment;
    }

    /** Imports every SSTable in {@code folder} into {@code keyspace.table}; fails with the folders the node refused. */
    // JMX connects by an RMI registry lookup; the address is the operator's store connection setting (the node's own
    // JMX port, as nodetool uses it), never a value from a request
    @SuppressWarnings("BanJNDI")
    void importInto(String keyspace, String table, Path folder) {
        try (JMXConnector connector = JMXConnectorFactory.connect(url, environment)) {
            MBeanServerConnection server = connector.getMBeanServerConnection();
            ObjectName name =
                    new ObjectName("org.apache.cassandra.db:type=Tables,keyspace=" + keyspace + ",table=" + table);
            // srcPaths, resetLevel, clearRepaired, verifySSTables, verifyTokens, invalidateCaches, extendedVerify,
            // copyData
            Object[] arguments = {Set.of(folder.toAbsolutePath().toString()), true, true, true, true, true, false, false
            };
            String[] signature = {
                Set.class.getName(), "boolean", "boolean", "boolean", "boolean", "boolean", "boolean", "boolean"
            };
            @SuppressWarnings("unchecked")
            List<String> failed = (List<String>) server.invoke(name, "importNewSSTables", arguments, signature);
            if (!failed.isEmpty()) {
                throw new StoreException.Fatal("the node refused the SSTables in " + failed + " for " + keyspace + "."
                        + table + "; see the node's log (a token it does not own needs sstableloader instead)");
            }
        } catch (StoreException e) {
            throw e;
        } catch (Exception e) {
            throw new StoreException.Retriable(
                    "importing SSTables into " + keyspace + "." + table + " over JMX at " + url + " failed: " + e, e);
        }
    }
}
