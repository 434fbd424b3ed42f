import {
  to = agentregistry_binding.planner_flights
  id = "projects/my-project/locations/global/bindings/planner-flights"
}
