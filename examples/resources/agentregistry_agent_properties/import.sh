# By the workload's full name:
terraform import agentregistry_agent_properties.currency projects/my-project/locations/us-central1/applications/payments/workloads/currency-agent
