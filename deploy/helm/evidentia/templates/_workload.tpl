{{/*
evidentia.workload: everything one component runs as. The single template for the five gRPC
services, the gateway and Envoy: Deployment (hardened security context, probes, resources),
Service, HorizontalPodAutoscaler, PodDisruptionBudget and NetworkPolicy.

Argument: dict
  "root"      $
  "component" accounts | payments | evidence | sharing | referrals | gateway | envoy
  "kind"      grpc | gateway | envoy
  "settings"  the component's settings (`defaults` overlaid with its own block)
*/}}
{{- define "evidentia.workload" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $s := .settings -}}
{{- $kind := .kind -}}
{{- $ctx := dict "root" $root "component" .component -}}
{{- $name := include "evidentia.componentName" $ctx -}}
{{- $port := 8081 -}}
{{- $portName := "http" -}}
{{- $appProtocol := "http" -}}
{{- $image := dict "repository" "evidentia-gateway" -}}
{{- if eq $kind "grpc" -}}
{{- $port = int $s.port -}}
{{- $portName = "grpc" -}}
{{- $appProtocol = "kubernetes.io/h2c" -}}
{{- $image = dict "repository" (printf "evidentia-%s" .component) -}}
{{- else if eq $kind "envoy" -}}
{{- $port = 8080 -}}
{{- end -}}
{{- $servicePort := $port -}}
{{- if eq $kind "envoy" -}}
{{- $servicePort = int $s.service.port -}}
{{- end -}}
{{- $image = mergeOverwrite $image (default (dict) $s.image) -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $name }}
  labels:
    {{- include "evidentia.labels" $ctx | nindent 4 }}
spec:
  {{- if not $s.autoscaling.enabled }}
  replicas: {{ $s.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 25%
  selector:
    matchLabels:
      {{- include "evidentia.selectorLabels" $ctx | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "evidentia.labels" $ctx | nindent 8 }}
        {{- with $s.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- if or $s.podAnnotations (eq $kind "envoy") }}
      annotations:
        {{- if eq $kind "envoy" }}
        checksum/envoy-config: {{ include "evidentia.envoyConfig" $root | sha256sum }}
        {{- end }}
        {{- with $s.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- end }}
    spec:
      {{- with $v.serviceAccountName }}
      serviceAccountName: {{ . }}
      {{- end }}
      automountServiceAccountToken: false
      enableServiceLinks: false
      terminationGracePeriodSeconds: {{ $s.terminationGracePeriodSeconds }}
      {{- with $v.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        {{- toYaml $v.podSecurityContext | nindent 8 }}
      containers:
        - name: {{ .component }}
          image: {{ include "evidentia.image" (dict "root" $root "image" $image) | quote }}
          imagePullPolicy: {{ $v.image.pullPolicy }}
          {{- if eq $kind "envoy" }}
          # The distroless Envoy image has no ENTRYPOINT (only a CMD): name the binary.
          command: [/usr/local/bin/envoy]
          args:
            - --config-path
            - /etc/envoy/envoy.yaml
            - --disable-hot-restart
            - --log-level
            - {{ $s.logLevel | quote }}
          {{- else }}
          env:
            {{- if eq $kind "grpc" }}
            {{- include "evidentia.env.grpc" (dict "root" $root "component" .component "settings" $s) | nindent 12 }}
            {{- else }}
            {{- include "evidentia.env.gateway" (dict "root" $root "component" .component "settings" $s) | nindent 12 }}
            {{- end }}
          {{- end }}
          ports:
            - name: {{ $portName }}
              containerPort: {{ $port }}
              protocol: TCP
          {{- if eq $kind "grpc" }}
          # The gRPC health check is readiness: SERVING only while the database, the broker and
          # Redis answer. Liveness and start-up only ask whether the process accepts connections,
          # so an outage of a dependency takes pods out of service without restarting them.
          startupProbe:
            tcpSocket:
              port: {{ $port }}
            periodSeconds: 2
            failureThreshold: 60
          readinessProbe:
            grpc:
              port: {{ $port }}
              service: {{ $v.grpcHealthService | quote }}
            periodSeconds: 5
            timeoutSeconds: 3
            failureThreshold: 2
          livenessProbe:
            tcpSocket:
              port: {{ $port }}
            periodSeconds: 10
            timeoutSeconds: 2
            failureThreshold: 3
          {{- else if eq $kind "gateway" }}
          startupProbe:
            httpGet:
              path: {{ $s.livenessPath }}
              port: {{ $portName }}
            periodSeconds: 2
            failureThreshold: 30
          readinessProbe:
            httpGet:
              path: {{ $s.readinessPath }}
              port: {{ $portName }}
            periodSeconds: 5
            timeoutSeconds: 2
            failureThreshold: 2
          livenessProbe:
            httpGet:
              path: {{ $s.livenessPath }}
              port: {{ $portName }}
            periodSeconds: 10
            timeoutSeconds: 2
            failureThreshold: 3
          {{- else }}
          # Ready when a request reaches a gateway through this Envoy; alive while it accepts.
          readinessProbe:
            httpGet:
              path: /api/health/live/
              port: {{ $portName }}
            periodSeconds: 5
            timeoutSeconds: 2
            failureThreshold: 2
          livenessProbe:
            tcpSocket:
              port: {{ $portName }}
            periodSeconds: 10
            timeoutSeconds: 2
            failureThreshold: 3
          {{- end }}
          {{- if $s.preStopSleepSeconds }}
          lifecycle:
            preStop:
              sleep:
                seconds: {{ $s.preStopSleepSeconds }}
          {{- end }}
          resources:
            {{- toYaml $s.resources | nindent 12 }}
          securityContext:
            {{- toYaml $v.containerSecurityContext | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            {{- if eq $kind "envoy" }}
            - name: envoy-config
              mountPath: /etc/envoy
              readOnly: true
            {{- end }}
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: {{ (default "64Mi" $s.tmpSizeLimit) | quote }}
        {{- if eq $kind "envoy" }}
        - name: envoy-config
          configMap:
            name: {{ include "evidentia.componentName" (dict "root" $root "component" "envoy") }}
        {{- end }}
      {{- if $s.topologySpread }}
      topologySpreadConstraints:
        {{- range $key := list "kubernetes.io/hostname" "topology.kubernetes.io/zone" }}
        - maxSkew: 1
          topologyKey: {{ $key }}
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "evidentia.selectorLabels" $ctx | nindent 14 }}
          matchLabelKeys:
            - pod-template-hash
        {{- end }}
      {{- end }}
      {{- with $s.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $s.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $s.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $name }}
  labels:
    {{- include "evidentia.labels" $ctx | nindent 4 }}
  {{- if eq $kind "envoy" }}
  {{- with $s.service.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- end }}
spec:
  {{- if eq $kind "envoy" }}
  type: {{ $s.service.type }}
  {{- if $s.service.externalTrafficPolicy }}
  externalTrafficPolicy: {{ $s.service.externalTrafficPolicy }}
  {{- end }}
  {{- else }}
  type: ClusterIP
  {{- end }}
  selector:
    {{- include "evidentia.selectorLabels" $ctx | nindent 4 }}
  ports:
    - name: {{ $portName }}
      port: {{ $servicePort }}
      targetPort: {{ $portName }}
      protocol: TCP
      appProtocol: {{ $appProtocol }}
{{- if eq $kind "gateway" }}
---
# Envoy resolves this name to every ready gateway pod (see files/envoy.yaml, `# chart: gateway-address`).
apiVersion: v1
kind: Service
metadata:
  name: {{ $name }}-headless
  labels:
    {{- include "evidentia.labels" $ctx | nindent 4 }}
spec:
  type: ClusterIP
  clusterIP: None
  selector:
    {{- include "evidentia.selectorLabels" $ctx | nindent 4 }}
  ports:
    - name: {{ $portName }}
      port: {{ $port }}
      targetPort: {{ $portName }}
      protocol: TCP
      appProtocol: {{ $appProtocol }}
{{- end }}
{{- if $s.autoscaling.enabled }}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ $name }}
  labels:
    {{- include "evidentia.labels" $ctx | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ $name }}
  minReplicas: {{ $s.autoscaling.minReplicas }}
  maxReplicas: {{ $s.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $s.autoscaling.targetCPUUtilizationPercentage }}
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 300
{{- end }}
{{- if $s.podDisruptionBudget.enabled }}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ $name }}
  labels:
    {{- include "evidentia.labels" $ctx | nindent 4 }}
spec:
  maxUnavailable: {{ $s.podDisruptionBudget.maxUnavailable }}
  selector:
    matchLabels:
      {{- include "evidentia.selectorLabels" $ctx | nindent 6 }}
{{- end }}
{{- if $v.networkPolicy.enabled }}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ $name }}
  labels:
    {{- include "evidentia.labels" $ctx | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "evidentia.selectorLabels" $ctx | nindent 6 }}
  policyTypes: [Ingress, Egress]
  ingress:
    - ports:
        - port: {{ $port }}
          protocol: TCP
      {{- if eq $kind "envoy" }}
      {{- with $v.networkPolicy.envoyIngressFrom }}
      from:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- else if eq $kind "gateway" }}
      from:
        - podSelector:
            matchLabels:
              {{- include "evidentia.selectorLabels" (dict "root" $root "component" "envoy") | nindent 14 }}
      {{- else }}
      # Only the gateway and the other gRPC services.
      from:
        - podSelector:
            matchLabels:
              app.kubernetes.io/name: {{ include "evidentia.name" $root }}
              app.kubernetes.io/instance: {{ $root.Release.Name }}
            matchExpressions:
              - key: app.kubernetes.io/component
                operator: In
                values: [gateway, accounts, payments, evidence, sharing, referrals]
      {{- end }}
  egress:
    {{- include "evidentia.egress.dns" $root | nindent 4 }}
    {{- if eq $kind "envoy" }}
    - to:
        - podSelector:
            matchLabels:
              {{- include "evidentia.selectorLabels" (dict "root" $root "component" "gateway") | nindent 14 }}
      ports:
        - port: 8081
          protocol: TCP
    {{- else }}
    {{- range $svc := include "evidentia.grpcServices" $root | fromJsonArray }}
    {{- if ne $svc $.component }}
    - to:
        - podSelector:
            matchLabels:
              {{- include "evidentia.selectorLabels" (dict "root" $root "component" $svc) | nindent 14 }}
      ports:
        - port: {{ (index $v.services $svc).port }}
          protocol: TCP
    {{- end }}
    {{- end }}
    {{- range $dep := $s.egress }}
    {{- include "evidentia.egress.dependency" (dict "root" $root "dependency" $dep) | nindent 4 }}
    {{- end }}
    {{- end }}
{{- end }}
{{- end -}}

{{/* Egress rule for DNS. Argument: $. */}}
{{- define "evidentia.egress.dns" -}}
- ports:
    {{- toYaml .Values.networkPolicy.dns.ports | nindent 4 }}
  {{- with .Values.networkPolicy.dns.to }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}

{{/* Egress rule for one outside dependency. Argument: dict "root" $ "dependency" name. */}}
{{- define "evidentia.egress.dependency" -}}
{{- $rule := index .root.Values.networkPolicy.egress .dependency -}}
{{- if not $rule -}}
{{- fail (printf "networkPolicy.egress has no entry %q" .dependency) -}}
{{- end -}}
# {{ .dependency }}
- ports:
    {{- range $rule.ports }}
    - port: {{ . }}
      protocol: TCP
    {{- end }}
  {{- with $rule.to }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}
