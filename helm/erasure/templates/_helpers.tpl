{{/* ------------------------------------------------------------------------------------------------
  Names and labels
------------------------------------------------------------------------------------------------ */}}

{{/* The chart name, or nameOverride. */}}
{{- define "erasure.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The prefix of every resource name: fullnameOverride, or the release name (plus the chart name unless it holds it). */}}
{{- define "erasure.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* chart-version, for the helm.sh/chart label. */}}
{{- define "erasure.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels of every resource except the instance. */}}
{{- define "erasure.commonLabels" -}}
helm.sh/chart: {{ include "erasure.chart" . }}
app.kubernetes.io/part-of: {{ include "erasure.name" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Labels of a release-wide resource (ServiceAccount, topics job). */}}
{{- define "erasure.labels" -}}
{{ include "erasure.commonLabels" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* Selector labels of one service; call with (dict "root" $ "name" "control-plane"). */}}
{{- define "erasure.selectorLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}

{{/* All labels of one service's resources; call with (dict "root" $ "name" "control-plane"). */}}
{{- define "erasure.serviceLabels" -}}
{{ include "erasure.commonLabels" .root }}
{{ include "erasure.selectorLabels" . }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* Resource name of one service, e.g. "erasure-control-plane"; call with (dict "root" $ "name" "control-plane"). */}}
{{- define "erasure.serviceFullname" -}}
{{- printf "%s-%s" (include "erasure.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The ServiceAccount the service pods run as. */}}
{{- define "erasure.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "erasure.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* ------------------------------------------------------------------------------------------------
  One service: its settings with defaults applied
------------------------------------------------------------------------------------------------ */}}

{{/*
  Deep merge as YAML (use with fromYaml): "over" wins key by key, maps merge recursively, lists are replaced.
  Unlike sprig's mergeOverwrite, an explicit false, 0 or "" in "over" wins too.
  Call with (dict "base" $map "over" $map).
*/}}
{{- define "erasure.merge" -}}
{{- $out := deepCopy (.base | default dict) -}}
{{- range $key, $value := (.over | default dict) -}}
{{- if and (kindIs "map" $value) (kindIs "map" (get $out $key)) -}}
{{- $_ := set $out $key (include "erasure.merge" (dict "base" (get $out $key) "over" $value) | fromYaml) -}}
{{- else -}}
{{- $_ := set $out $key $value -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/*
  A service's entry merged over .Values.defaults, as YAML (use with fromYaml);
  call with (dict "root" $ "name" "control-plane" "service" $service).
*/}}
{{- define "erasure.effective" -}}
{{- include "erasure.merge" (dict "base" .root.Values.defaults "over" .service) -}}
{{- end -}}

{{/* The image of one service; call with (dict "root" $ "name" "control-plane" "service" $effective). */}}
{{- define "erasure.image" -}}
{{- $image := .service.image | default dict -}}
{{- $repository := $image.repository | default (printf "%s%s" .root.Values.image.repositoryPrefix .name) -}}
{{- $tag := $image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- printf "%s:%s" $repository (toString $tag) -}}
{{- end -}}

{{/* Whether one service needs a thing ("kafka", "postgres", ...): "true" or "". */}}
{{- define "erasure.needs" -}}
{{- if has .thing (.service.needs | default list) -}}true{{- end -}}
{{- end -}}

{{/* ------------------------------------------------------------------------------------------------
  Topics: the numbers the services and the topics job share
------------------------------------------------------------------------------------------------ */}}

{{/* One topic's entry by name; fails when the list lacks it. Call with (dict "root" $ "topic" "erasure.deletion.log"). */}}
{{- define "erasure.topic" -}}
{{- $topic := index .root.Values.topics.list .topic -}}
{{- if not $topic -}}
{{- fail (printf "topics.list must name the topic %s" .topic) -}}
{{- end -}}
{{- toYaml $topic -}}
{{- end -}}

{{/* Partitions of one topic, as an integer string. Call with (dict "root" $ "topic" "erasure.deletion.log"). */}}
{{- define "erasure.topicPartitions" -}}
{{- $topic := include "erasure.topic" . | fromYaml -}}
{{- int $topic.partitions -}}
{{- end -}}

{{/* Replication factor of one topic: its own, or topics.replicationFactor. */}}
{{- define "erasure.topicReplicas" -}}
{{- $topic := include "erasure.topic" . | fromYaml -}}
{{- int ($topic.replicationFactor | default .root.Values.topics.replicationFactor) -}}
{{- end -}}

{{/* ------------------------------------------------------------------------------------------------
  The ops dashboard
------------------------------------------------------------------------------------------------ */}}

{{/*
  The services the dashboard calls from the browser, as YAML (use with fromYaml): the component of
  erasure.dashboard.services (control-plane's DashboardProperties.Services, also the key under
  dashboard.services in values) -> the service. HelmChartTest keeps it in step with DashboardProperties.
*/}}
{{- define "erasure.dashboardServices" -}}
deletionLog: deletion-log-service
recovery: recovery-service
deletion: deletion-service
{{- end -}}

{{/* dashboard.origin, checked: "" or scheme://host[:port] as a browser sends it in Origin. */}}
{{- define "erasure.dashboardOrigin" -}}
{{- $origin := .Values.dashboard.origin | default "" | trim -}}
{{- if and $origin (not (regexMatch "^https?://[^/?#@\\s]+$" $origin)) -}}
{{- fail (printf "dashboard.origin has '%s': give the control plane's origin as scheme://host[:port], without path or trailing slash, e.g. https://erasure.example.com" $origin) -}}
{{- end -}}
{{- $origin -}}
{{- end -}}

{{/* ------------------------------------------------------------------------------------------------
  The application.yml of one service (non-secret); call with (dict "root" $ "name" ... "service" $effective)
------------------------------------------------------------------------------------------------ */}}
{{- define "erasure.applicationYml" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $svc := .service -}}
{{- $runPartitions := include "erasure.topicPartitions" (dict "root" $root "topic" "erasure.run.commands") -}}
{{- if ne $runPartitions (include "erasure.topicPartitions" (dict "root" $root "topic" "erasure.run.events")) -}}
{{- fail "topics.list: erasure.run.commands and erasure.run.events must have the same partitions (both are erasure.topics.run-partitions)" -}}
{{- end -}}
{{- $management := dict "endpoint" (dict "health" (dict "probes" (dict "enabled" true))) -}}
{{- $topics := dict "replicas" (int $v.topics.replicationFactor) "run-partitions" (int $runPartitions)
      "task-partitions" (int (include "erasure.topicPartitions" (dict "root" $root "topic" "erasure.deletion.tasks")))
      "log-partitions" (int (include "erasure.topicPartitions" (dict "root" $root "topic" "erasure.deletion.log")))
      "refused-partitions" (int (include "erasure.topicPartitions" (dict "root" $root "topic" "erasure.deletion.tasks.refused"))) -}}
{{- $spring := dict -}}
{{/* the numbers the topics job uses, for a topic a service creates on its own */}}
{{- $erasure := dict "topics" $topics -}}
{{- if include "erasure.needs" (dict "service" $svc "thing" "kafka") -}}
{{- $kafka := dict "bootstrap-servers" (required "kafka.bootstrapServers is required" $v.kafka.bootstrapServers) -}}
{{- if $v.kafka.properties -}}
{{- $_ := set $kafka "properties" $v.kafka.properties -}}
{{- end -}}
{{- $_ := set $spring "kafka" $kafka -}}
{{- end -}}
{{- if include "erasure.needs" (dict "service" $svc "thing" "postgres") -}}
{{- $_ := set $spring "datasource" (dict "url" (required "postgres.url is required" $v.postgres.url) "username" (required "postgres.username is required" $v.postgres.username)) -}}
{{- end -}}
{{- if include "erasure.needs" (dict "service" $svc "thing" "cassandra") -}}
{{- $_ := set $spring "cassandra" (dict "contact-points" (required "cassandra.contactPoints is required" $v.cassandra.contactPoints) "local-datacenter" (required "cassandra.localDatacenter is required" $v.cassandra.localDatacenter)) -}}
{{- end -}}
{{- if include "erasure.needs" (dict "service" $svc "thing" "s3") -}}
{{- $s3 := dict "endpoint" ($v.s3.endpoint | default "") "region" (required "s3.region is required" $v.s3.region) "bucket" (required "s3.bucket is required" $v.s3.bucket) "path-style" (eq (toString $v.s3.pathStyle) "true") -}}
{{- if not $v.s3.existingSecret -}}
{{/* blank keys switch off the jar's local defaults: the AWS default credentials chain applies */}}
{{- $_ := set $s3 "access-key" "" -}}
{{- $_ := set $s3 "secret-key" "" -}}
{{- end -}}
{{- $_ := set $erasure "s3" $s3 -}}
{{- end -}}
{{- if include "erasure.needs" (dict "service" $svc "thing" "deletionLog") -}}
{{- $replication := dict "strategy" $v.deletionLog.replication.strategy "factor" (int $v.deletionLog.replication.factor) -}}
{{- if $v.deletionLog.replication.datacenters -}}
{{- $_ := set $replication "datacenters" $v.deletionLog.replication.datacenters -}}
{{- end -}}
{{- $_ := set $erasure "deletion-log" (dict "ttl" $v.deletionLog.ttl "replication" $replication) -}}
{{- end -}}
{{- if include "erasure.needs" (dict "service" $svc "thing" "access") -}}
{{/* an empty list replaces the jar's demo users; the users Secret, read later, replaces it in turn */}}
{{- $_ := set $erasure "access" (dict "users" list) -}}
{{- $jwt := dict -}}
{{- with $v.access.jwt.issuerUri -}}{{- $_ := set $jwt "issuer-uri" . -}}{{- end -}}
{{- with $v.access.jwt.jwkSetUri -}}{{- $_ := set $jwt "jwk-set-uri" . -}}{{- end -}}
{{- with $v.access.jwt.audiences -}}{{- $_ := set $jwt "audiences" . -}}{{- end -}}
{{- if $jwt -}}
{{- $_ := set $spring "security" (dict "oauth2" (dict "resourceserver" (dict "jwt" $jwt))) -}}
{{- end -}}
{{- end -}}
{{- if include "erasure.needs" (dict "service" $svc "thing" "connections") -}}
{{- if $v.connections.definitions -}}
{{- $_ := set $erasure "connections" $v.connections.definitions -}}
{{- end -}}
{{- end -}}
{{- $signing := dict "local-keys" false -}}
{{- if include "erasure.needs" (dict "service" $svc "thing" "signing") -}}
{{/* the private key itself comes from its Secret as ERASURE_SIGNING_PRIVATEKEY */}}
{{- $key := get $v.signing.keys .name | default dict -}}
{{- $_ := set $signing "key-id" (required (printf "signing.keys.%s.keyId is required: the id its consumers trust its public key by" .name) $key.keyId) -}}
{{- end -}}
{{- if or (eq .name "deletion-service") (eq .name "control-plane") -}}
{{- if not $v.signing.trustedKeys -}}
{{- fail "signing.trustedKeys is required: deletion-service executes only tasks signed by a key listed there (the control plane's with grants [RUN, FORWARD, CONTROL], its own with [COPY, FORWARD, BATCH_RESULT], recovery's with [FORWARD]) and control-plane applies only run events sealed by one (audit-service's with [AUDIT_RESULT], validation-service's with [VALIDATION_RESULT], deletion-service's with [BATCH_RESULT])" -}}
{{- end -}}
{{- $trusted := dict -}}
{{- $granted := list -}}
{{- range $id, $entry := $v.signing.trustedKeys -}}
{{- $grants := required (printf "signing.trustedKeys.%s.grants is required: what the key may sign (RUN, FORWARD, COPY, CONTROL, AUDIT_RESULT, VALIDATION_RESULT, BATCH_RESULT)" $id) $entry.grants -}}
{{- $_ := set $trusted $id (dict "public-key" (required (printf "signing.trustedKeys.%s.publicKey is required" $id) $entry.publicKey) "grants" $grants) -}}
{{- $granted = concat $granted $grants -}}
{{- end -}}
{{- if eq .name "control-plane" -}}
{{- range $grant := list "AUDIT_RESULT" "VALIDATION_RESULT" "BATCH_RESULT" -}}
{{- if not (has $grant $granted) -}}
{{- fail (printf "signing.trustedKeys has no key granted %s: control-plane applies only run events sealed by a key trusted for their producer (audit-service: AUDIT_RESULT, validation-service: VALIDATION_RESULT, deletion-service: BATCH_RESULT)" $grant) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $_ := set $signing "trusted-keys" $trusted -}}
{{- end -}}
{{/* every service: the jars' LOCAL ONLY keys are neither used nor trusted */}}
{{- $_ := set $erasure "signing" $signing -}}
{{- if include "erasure.needs" (dict "service" $svc "thing" "receipts") -}}
{{/* the signing key itself comes from its Secret as ERASURE_RECEIPTS_SIGNINGKEY */}}
{{- $_ := set $erasure "receipts" (dict "key-id" (required "receipts.keyId is required: it names the receipt signing key in every signature" $v.receipts.keyId)) -}}
{{- end -}}
{{- $dashboardOrigin := include "erasure.dashboardOrigin" $root -}}
{{- $dashboardServices := include "erasure.dashboardServices" $root | fromYaml -}}
{{- if eq .name "control-plane" -}}
{{/* registrations: the live check at the deletion service (its password: ERASURE_REGISTRY_LIVECHECK_PASSWORD) */}}
{{- $deletion := index $v.services "deletion-service" -}}
{{- $checkUrl := printf "http://%s:%v" (include "erasure.serviceFullname" (dict "root" $root "name" "deletion-service")) $deletion.port -}}
{{- $_ := set $erasure "registry" (dict "live-check" (dict "url" $checkUrl "username" (required "registry.liveCheck.username is required: the deletion service's REGISTRY user" $v.registry.liveCheck.username))) -}}
{{- $ceiling := dict "max-fraction" $v.ownership.limitsCeiling.maxFraction "max-rows" (int64 $v.ownership.limitsCeiling.maxRows) -}}
{{- $_ := set $erasure "ownership" (dict "grants" ($v.ownership.grants | default list) "limits-ceiling" $ceiling) -}}
{{- end -}}
{{- if eq .name "control-plane" -}}
{{- $urls := dict -}}
{{- range $component, $service := $dashboardServices -}}
{{- $url := (get ($v.dashboard.services | default dict) $component) | default "" | trim -}}
{{- if and $dashboardOrigin (not $url) -}}
{{- fail (printf "dashboard.services.%s is required with dashboard.origin: the URL a browser reaches %s at (your ingress host or a port-forward)" $component $service) -}}
{{- end -}}
{{- if $url -}}
{{- $_ := set $urls (kebabcase $component) $url -}}
{{- end -}}
{{- end -}}
{{- if $urls -}}
{{- $_ := set $erasure "dashboard" (dict "services" $urls) -}}
{{- end -}}
{{- end -}}
{{- if and $dashboardOrigin (has .name (values $dashboardServices)) -}}
{{/* the dashboard's page, served from that origin, calls this service from the browser */}}
{{- $access := get $erasure "access" | default dict -}}
{{- $_ := set $access "cors" (dict "allowed-origins" (list $dashboardOrigin)) -}}
{{- $_ := set $erasure "access" $access -}}
{{- end -}}
{{- if eq .name "recovery-service" -}}
{{- $bulk := $v.recoveryBulk | default dict -}}
{{- $loader := $bulk.loader | default "auto" | toString | trim | lower -}}
{{- if not (has $loader (list "import" "sstableloader" "auto")) -}}
{{- fail (printf "recoveryBulk.loader has '%s': use import, sstableloader or auto" $bulk.loader) -}}
{{- end -}}
{{- $recovery := dict "bulk-threshold" (int ($bulk.threshold | default 0)) "bulk-loader" $loader -}}
{{- if gt (int ($bulk.threshold | default 0)) 0 -}}
{{- $_ := set $recovery "bulk-writer-classpath" (required "recoveryBulk.writerClasspath is required when recoveryBulk.threshold > 0: the service image has no SSTable writer" $bulk.writerClasspath) -}}
{{- $_ := set $recovery "bulk-work-dir" (required "recoveryBulk.workDir is required when recoveryBulk.threshold > 0: where SSTables are staged (with loader import, a folder the Cassandra nodes see at the same path)" $bulk.workDir) -}}
{{- end -}}
{{- $_ := set $erasure "recovery" $recovery -}}
{{- end -}}
{{- if eq .name "audit-service" -}}
{{- $medusa := $v.auditMedusa | default dict -}}
{{- $reader := dict "classpath" ($medusa.readerClasspath | default "" | toString) "heap" ($medusa.readerHeap | default "1g" | toString) -}}
{{- $_ := set $erasure "audit" (dict "unit-partitions" (int (include "erasure.topicPartitions" (dict "root" $root "topic" "erasure.audit.units"))) "medusa-token-ranges" (int ($medusa.tokenRanges | default 1)) "sstable-reader" $reader) -}}
{{- end -}}
{{/* probes are on by default in Boot 4; stated here because the Deployment relies on them */}}
{{- $config := dict "server" (dict "port" (int $svc.port)) "management" $management "spring" $spring "erasure" $erasure -}}
{{- $config = include "erasure.merge" (dict "base" $config "over" $v.config) | fromYaml -}}
{{- $config = include "erasure.merge" (dict "base" $config "over" $svc.config) | fromYaml -}}
{{- toYaml $config -}}
{{- end -}}
