# By full binding name:
terraform import agentregistry_binding.planner_flights projects/my-project/locations/global/bindings/planner-flights

# By binding_id, in the provider's project and location:
terraform import agentregistry_binding.planner_flights planner-flights
