package io.erasure.infra;

import java.util.List;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * What tests need of {@code nodetool}, over the local node's JMX: flush, major compaction, snapshots, SSTables of a
 * key.
 */
public final class NodeTool implements AutoCloseable {

    private final JMXConnector connector;
    private final MBeanServerConnection server;

    // the local test node's own JMX endpoint: an RMI lookup by name is how JMX connects, and nothing else is looked up
    @SuppressWarnings("BanJNDI")
    public NodeTool(CassandraEngine engine) throws Exception {
        connector = JMXConnectorFactory.connect(
                new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + engine.jmxPort() + "/jmxrmi"));
        server = connector.getMBeanServerConnection();
    }

    /** {@code nodetool flush keyspace table}. */
    public void flush(String keyspace, String table) throws Exception {
        server.invoke(
                storageService(), "forceKeyspaceFlush", new Object[] {keyspace, new String[] {table}}, new String[] {
                    String.class.getName(), String[].class.getName()
                });
    }

    /** {@code nodetool compact keyspace table}: a major compaction, returns when done. */
    public void compact(String keyspace, String table) throws Exception {
        server.invoke(
                storageService(),
                "forceKeyspaceCompaction",
                new Object[] {false, keyspace, new String[] {table}},
                new String[] {boolean.class.getName(), String.class.getName(), String[].class.getName()});
    }

    /**
     * {@code nodetool snapshot -t tag keyspace.table}: hard links of the table's SSTables, with its {@code schema.cql}
     * and {@code manifest.json}, under {@code <data>/<keyspace>/<table>-<id>/snapshots/<tag>/}.
     */
    public void snapshot(String tag, String keyspace, String table) throws Exception {
        server.invoke(
                storageService(),
                "takeSnapshot",
                new Object[] {tag, Map.of(), new String[] {keyspace + "." + table}},
                new String[] {String.class.getName(), Map.class.getName(), String[].class.getName()});
    }

    /** {@code nodetool getsstables keyspace table key}: the SSTables holding anything of the partition. */
    @SuppressWarnings("unchecked")
    public List<String> sstablesOf(String keyspace, String table, String partitionKey) throws Exception {
        return (List<String>) server.invoke(
                new ObjectName("org.apache.cassandra.db:type=Tables,keyspace=" + keyspace + ",table=" + table),
                "getSSTablesForKey",
                new Object[] {partitionKey},
                new String[] {String.class.getName()});
    }

    private static ObjectName storageService() throws Exception {
        return new ObjectName("org.apache.cassandra.db:type=StorageService");
    }

    @Override
    public void close() throws Exception {
        connector.close();
    }
}
